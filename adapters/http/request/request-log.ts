import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"

/** What an incoming X-Request-Id may hold to be kept: short, and safe to echo and to log. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/** The bearer tokens some paths carry, under any base path: a checkout link's, a set-password link's, a customer portal link's. */
const SECRET_SEGMENT = /\/(checkout|dashboard\/set-password|customer-portal\/session)\/[^/]+/

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

/** A valid incoming `X-Request-Id` is kept (a proxy's, to follow one request across hops); else undefined. */
export const presentedRequestId = (request: HttpServerRequest.HttpServerRequest): string | undefined => {
  const presented = request.headers["x-request-id"]
  return presented !== undefined && REQUEST_ID.test(presented) ? presented : undefined
}

/**
 * The one line a request leaves when it ends: method, path (as `loggedPath` writes it), status and
 * duration, under the request id the edge annotates; a request cut off before its answer is a
 * warning. Nothing from headers or body is logged. (Part of the request edge, request-edge.ts.)
 */
export const requestLine = (method: string, path: string, status: number | undefined, durationMs: number) => {
  const fields = { method, path, status: status ?? null, duration_ms: durationMs }
  const shown = `${method} ${path} ${status ?? "aborted"} ${durationMs}ms`
  return status === undefined ? Effect.logWarning(shown, fields) : Effect.logInfo(shown, fields)
}

/** The id the edge gave this request (kept from X-Request-Id or made), read from its log annotation; null outside the edge. */
export const requestId = Effect.map(Effect.logAnnotations, (annotations) =>
  Option.getOrNull(Option.filter(HashMap.get(annotations, "request_id"), (value): value is string => typeof value === "string")))
