import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { Ids } from "../../../core/signing/random-ids.js"

/** What an incoming X-Request-Id may hold to be kept: short, and safe to echo and to log. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The bearer tokens some paths carry, under any base path: a checkout link's, a set-password link's. */
const SECRET_SEGMENT = /\/(checkout|dashboard\/set-password)\/[^/]+/

/**
 * The path as logged: query values dropped (they may carry references or e-mail addresses), keys
 * kept, and a link's token replaced, since the link itself grants access to its page.
 */
export const loggedPath = (url: string): string => {
  const queryStart = url.indexOf("?")
  const pathname = (queryStart === -1 ? url : url.slice(0, queryStart)).replace(SECRET_SEGMENT, "/$1/:token")
  if (queryStart === -1) return pathname
  const keys = [...new Set(new URLSearchParams(url.slice(queryStart + 1)).keys())].map(encodeURIComponent)
  return keys.length === 0 ? pathname : `${pathname}?${keys.join("&")}`
}

/**
 * Middleware: every request gets an id (a valid incoming `X-Request-Id` is kept), echoed on the
 * response and attached to every log line written while it runs, and one line when it ends: method,
 * path, status, duration. Nothing from headers or body is logged.
 */
export const withRequestLog = <E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const started = performance.now()
    const presented = request.headers["x-request-id"]
    const requestId = presented !== undefined && REQUEST_ID.test(presented) ? presented : yield* (yield* Ids).uuid
    const path = loggedPath(request.url)
    const line = (status: number | undefined) => {
      const durationMs = Math.round(performance.now() - started)
      const fields = { method: request.method, path, status: status ?? null, duration_ms: durationMs }
      const shown = `${request.method} ${path} ${status ?? "aborted"} ${durationMs}ms`
      return Effect.annotateLogs(status === undefined ? Effect.logWarning(shown, fields) : Effect.logInfo(shown, fields), "request_id", requestId)
    }
    return yield* app.pipe(
      Effect.annotateLogs("request_id", requestId),
      Effect.map(HttpServerResponse.setHeaders({ "x-request-id": requestId, "x-content-type-options": "nosniff" })),
      Effect.onExit((exit) => line(Exit.isSuccess(exit) ? exit.value.status : undefined))
    )
  })
