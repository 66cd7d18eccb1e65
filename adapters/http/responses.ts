import { HttpServerResponse } from "@effect/platform"
import { Clock, Effect } from "effect"
import { Instant, toIsoString } from "../../core/shared/instant.js"
import { describeError } from "./error-table.js"
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

/** Any failure as the error body of spec 7.3, decided by the one error table. */
export const renderError = (error: unknown): Effect.Effect<RenderedResponse> =>
  Effect.map(Clock.currentTimeNanos, (nanos) => {
    const described = describeError(error)
    return renderBody(described.status, {
      success: false,
      message: described.message,
      error_code: described.errorCode,
      errors: described.errors ?? {},
      timestamp: toIsoString(Instant(nanos / 1000n))
    }, described.headers ?? {})
  })

export const errorHttpResponse = (error: unknown) => Effect.map(renderError(error), toHttpResponse)
