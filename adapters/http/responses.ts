import { HttpServerResponse } from "@effect/platform"
import { Clock, Effect } from "effect"
import { Instant, toIsoString } from "../../core/shared/instant.js"
import type { ApiError } from "./api-error.js"
import { describeError, type ErrorDescription, SERVER_ERROR } from "./error-table.js"
import { renderJson } from "./json-codec.js"

/** A response rendered to its exact text: what is sent, and what an idempotent replay sends again. */
export interface RenderedResponse {
  readonly status: number
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
}

export const renderBody = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): RenderedResponse => ({
  status,
  text: renderJson(body),
  headers
})

export const toHttpResponse = (response: RenderedResponse) =>
  HttpServerResponse.text(response.text, { status: response.status, contentType: "application/json", headers: response.headers })

const renderDescribed = (described: ErrorDescription): Effect.Effect<RenderedResponse> =>
  Effect.map(Clock.currentTimeNanos, (nanos) =>
    renderBody(described.status, {
      success: false,
      message: described.message,
      error_code: described.errorCode,
      errors: described.errors ?? {},
      timestamp: toIsoString(Instant(nanos / 1000n))
    }, described.headers ?? {}))

/** A failure as the error body of spec 7.3, decided by the one error table. */
export const renderError = (error: ApiError): Effect.Effect<RenderedResponse> => renderDescribed(describeError(error))

export const errorHttpResponse = (error: ApiError) => Effect.map(renderError(error), toHttpResponse)

/** A defect: the 7.3 body of a server error, telling the caller nothing of what went wrong. */
export const serverErrorHttpResponse = Effect.map(renderDescribed(SERVER_ERROR), toHttpResponse)
