import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { Instant, toIsoString } from "../../../core/shared/instant.js"
import type { ApiError } from "./api-error.js"
import { describeError, type ErrorDescription, SERVER_ERROR } from "./error-table.js"
import { renderJson } from "../contract/json-codec.js"
import { BinaryFile } from "./binary-file.js"
import { TextFile } from "./text-file.js"
import { wholeText } from "./whole-text.js"
import { requestId } from "../request/request-log.js"

/** A response rendered to its exact text: what is sent, and what an idempotent replay sends again. */
export interface RenderedResponse {
  readonly status: number
  readonly text: string
  readonly headers: Readonly<Record<string, string>>
  /** A binary file's bytes (binary-file.ts), sent instead of `text`. */
  readonly bytes?: Uint8Array
}

export const renderBody = (status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): RenderedResponse =>
  body instanceof TextFile
    ? {
      status,
      text: body.text,
      ...(body instanceof BinaryFile ? { bytes: body.bytes } : {}),
      headers: {
        ...headers,
        "content-type": body.contentType,
        ...(body.filename !== undefined ? { "content-disposition": `attachment; filename="${body.filename}"` } : {})
      }
    }
    : { status, text: renderJson(body), headers }

/** JSON unless the answer is a file that says its own type. */
export const toHttpResponse = (response: RenderedResponse) => {
  const { "content-type": contentType = "application/json", ...headers } = response.headers
  if (response.bytes !== undefined) return HttpServerResponse.uint8Array(response.bytes, { status: response.status, contentType, headers })
  return wholeText(response.text, { status: response.status, contentType, headers })
}

/**
 * The 7.3 body, and beside its fields the request's id (its X-Request-Id: what a merchant quotes to
 * support and finds in its request log); null only outside the request edge, where no id was given.
 */
const renderDescribed = (described: ErrorDescription): Effect.Effect<RenderedResponse> =>
  Effect.zipWith(Clock.currentTimeNanos, requestId, (nanos, id) =>
    renderBody(described.status, {
      success: false,
      message: described.message,
      error_code: described.errorCode,
      errors: described.errors ?? {},
      timestamp: toIsoString(Instant(nanos / 1000n)),
      request_id: id
    }, described.headers ?? {}))

/**
 * The store's failures are the operator's business, not the caller's: the answer says nothing of
 * them, so the log does (the driver's message only; values reach SQL as bound parameters).
 */
const logStoreFailure = (error: ApiError): Effect.Effect<void> =>
  error._tag !== "StorageError"
    ? Effect.void
    : error.unavailable === true
    ? Effect.logWarning(`store unavailable; answered 503: ${error.message}`)
    : Effect.logError(`store failed; answered 500: ${error.message}`)

/** A failure as the error body of spec 7.3, decided by the one error table. */
export const renderError = (error: ApiError): Effect.Effect<RenderedResponse> =>
  Effect.zipRight(logStoreFailure(error), renderDescribed(describeError(error)))

export const errorHttpResponse = (error: ApiError) => Effect.map(renderError(error), toHttpResponse)

/** A defect: the 7.3 body of a server error, telling the caller nothing of what went wrong. */
export const serverErrorHttpResponse = Effect.map(renderDescribed(SERVER_ERROR), toHttpResponse)
