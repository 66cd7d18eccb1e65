import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import type { AnsweredCall } from "../../../core/request-logs/request-log-writer.js"
import { RequestLogWriter } from "../../../core/request-logs/request-log-writer.js"
import type { RequestLogError } from "../../../core/request-logs/request-log.js"
import { bounded } from "../../../core/request-logs/request-log-redaction.js"
import type { Environment } from "../../../core/shared/environment.js"
import type { MerchantId } from "../../../core/shared/ids.js"
import { now } from "../../../core/shared/instant.js"
import { requestId } from "../request/request-log.js"
import { requestTarget } from "../request/request-target.js"
import type { RenderedResponse } from "../response/responses.js"

/**
 * Which merchant API calls are kept in the merchant's request log (core/request-logs), and how the
 * edge hands one over. Reading the log itself and the event stream are not kept: a tail polling
 * the log, or a stream held open, would fill the log with itself.
 */
const NOT_KEPT = new Set(["/api/v1/request-logs", "/api/v1/events/stream"])

/** Whose log a call goes to: the authenticated caller's, or the real merchant key a refused call named. */
export interface LogOwner {
  readonly merchantId: MerchantId
  readonly environment: Environment
}

/** A stored path or key is bounded like the bodies: a client may send a very long one. */
const MAX_PATH_CHARS = 2048
const MAX_KEY_CHARS = 255

const pathname = (url: string) => {
  const queryStart = url.indexOf("?")
  return queryStart === -1 ? url : url.slice(0, queryStart)
}

export const isKept = (request: HttpServerRequest.HttpServerRequest): boolean => !NOT_KEPT.has(pathname(request.url))

/** The 7.3 body's error_code and message, read back from the answer as sent (a replayed one too). */
const errorOf = (response: RenderedResponse): RequestLogError | null => {
  if (response.status < 400) return null
  try {
    const body: unknown = JSON.parse(response.text)
    if (typeof body !== "object" || body === null) return null
    const { error_code: errorCode, message } = body as Record<string, unknown>
    return typeof errorCode === "string" ? { errorCode, message: typeof message === "string" ? message : "" } : null
  } catch {
    return null
  }
}

const decoder = new TextDecoder()

/**
 * Queues the answered call for its owner's log: cheap (a queue offer; redaction and the write
 * happen later, in the writer), and never failing the answer.
 */
export const keepCall = (
  request: HttpServerRequest.HttpServerRequest,
  owner: LogOwner,
  rawBody: Uint8Array | undefined,
  response: RenderedResponse,
  startedMillis: number,
  signatureCheck: AnsweredCall["signatureCheck"] = null
) =>
  Effect.gen(function*() {
    const key = request.headers["idempotency-key"]
    yield* (yield* RequestLogWriter).keep({
      merchantId: owner.merchantId,
      environment: owner.environment,
      requestId: (yield* requestId) ?? "",
      method: request.method,
      path: bounded(requestTarget(request), MAX_PATH_CHARS),
      status: response.status,
      durationMs: Math.round(performance.now() - startedMillis),
      idempotencyKey: key === undefined ? null : key.slice(0, MAX_KEY_CHARS),
      error: errorOf(response),
      requestBody: rawBody === undefined || rawBody.length === 0 ? null : decoder.decode(rawBody),
      // A binary file (a PDF) is not text to keep.
      responseBody: response.bytes !== undefined ? null : response.text,
      signatureCheck,
      createdAt: yield* now
    })
  }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("request log: a call was not kept", cause)))
