import { renderBody, type RenderedResponse } from "./responses.js"

/** What a handler answers, as data; the edge renders it once. */
export interface ApiResponse {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

export const ok = (body: unknown): ApiResponse => ({ status: 200, body })
export const created = (body: unknown): ApiResponse => ({ status: 201, body })

export const renderApiResponse = (response: ApiResponse): RenderedResponse =>
  renderBody(response.status, response.body, response.headers ?? {})
