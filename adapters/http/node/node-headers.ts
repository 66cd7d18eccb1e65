import { validateHeaderName, validateHeaderValue } from "node:http"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { serverErrorHttpResponse } from "../response/responses.js"
import { headersOf } from "./node-response.js"

/**
 * The first header of an answer that Node would refuse to write (a value outside Latin-1 or with a
 * line break, a malformed name), by name; undefined when Node takes them all. Node's own checks,
 * the ones `writeHead` runs, so the verdict cannot differ from what writing would do.
 */
export const refusedHeader = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  for (const [name, value] of Object.entries(headersOf(response))) {
    try {
      validateHeaderName(name)
      if (value !== undefined) for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, String(one))
    } catch {
      return name
    }
  }
  return undefined
}

/**
 * The answer as Node will write it: an answer with a header Node refuses would throw at `writeHead`,
 * after the request was logged and counted with the status it never got; it becomes the logged 500
 * here instead, before the edge records it, so log, metrics and the wire say the same. The header
 * is named, its value never logged (it may carry a secret).
 */
export const nodeWritable = (response: HttpServerResponse.HttpServerResponse) => {
  const refused = refusedHeader(response)
  if (refused === undefined) return Effect.succeed(response)
  return Effect.zipRight(
    Effect.logError(`the answer could not be written: Node refuses its ${JSON.stringify(refused)} header; answered 500 instead of ${response.status}`),
    serverErrorHttpResponse
  )
}
