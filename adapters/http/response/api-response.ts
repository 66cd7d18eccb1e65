import { renderBody, type RenderedResponse } from "./responses.js"

/** What a handler answers, as data; the edge renders it once. */
export interface ApiResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** An answer that is not JSON (a CSV download): sent as its text, with its own type and headers. */
export class TextAnswer {
  constructor(
    readonly text: string,
    readonly contentType: string,
    readonly headers: Readonly<Record<string, string>> = {}
  ) {}
}

export const ok = (body: unknown): ApiResponse => ({ status: 200, body })
export const created = (body: unknown): ApiResponse => ({ status: 201, body })

export const renderApiResponse = (response: ApiResponse): RenderedResponse =>
  response.body instanceof TextAnswer
    ? { status: response.status, text: response.body.text, headers: { ...response.headers, ...response.body.headers }, contentType: response.body.contentType }
    : renderBody(response.status, response.body, response.headers ?? {})
