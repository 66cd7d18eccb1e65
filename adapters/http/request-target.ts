import type { HttpServerRequest } from "@effect/platform"

/**
 * The path and query the client sent, before any mount prefix was stripped: what it signed.
 * Node hands over the bare target; a web Request (fetch-style hosts) carries an absolute URL, whose
 * scheme and host are dropped so both sign the same text.
 */
export const requestTarget = (request: HttpServerRequest.HttpServerRequest): string => {
  const url = request.originalUrl
  if (url.startsWith("/")) return url
  const pathStart = url.indexOf("/", url.indexOf("//") + 2)
  return pathStart === -1 ? "/" : url.slice(pathStart)
}
