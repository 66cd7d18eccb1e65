import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"

/** The path and query of a request URL: Node hands over the bare target, a web Request an absolute URL. */
export const pathAndQuery = (url: string): string => {
  if (url.startsWith("/")) return url
  const pathStart = url.indexOf("/", url.indexOf("//") + 2)
  return pathStart === -1 ? "/" : url.slice(pathStart)
}

/**
 * The path and query the client sent, before any mount prefix was stripped: what it signed.
 * A web Request (fetch-style hosts) carries an absolute URL, whose scheme and host are dropped so
 * both sign the same text.
 */
export const requestTarget = (request: HttpServerRequest.HttpServerRequest): string => pathAndQuery(request.originalUrl)

/**
 * The same target relative to the kit's base path (the router's view): what a client that takes the
 * spec's paths as relative to `{base_url}` signs. Equal to `requestTarget` when there is no base path.
 */
export const relativeRequestTarget = (request: HttpServerRequest.HttpServerRequest): string => pathAndQuery(request.url)
