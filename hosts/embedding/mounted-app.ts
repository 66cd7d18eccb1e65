import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { httpApp } from "../../adapters/http/app.js"
import { RouteNotFound } from "../../adapters/http/edge-errors.js"
import { errorHttpResponse } from "../../adapters/http/responses.js"
import type { ManualClock } from "../../core/shared/manual-clock.js"

/** The path and query of a request URL: Node hands over the bare target, a web Request an absolute URL. */
const targetOf = (url: string): string => {
  if (url.startsWith("/")) return url
  const pathStart = url.indexOf("/", url.indexOf("//") + 2)
  return pathStart === -1 ? "/" : url.slice(pathStart)
}

/** The path under the base path, or undefined when the request is not the kit's. */
export const underBasePath = (requestUrl: string, basePath: string): string | undefined => {
  const url = targetOf(requestUrl)
  if (basePath === "") return url
  if (url === basePath || url.startsWith(`${basePath}?`)) return `/${url.slice(basePath.length)}`
  return url.startsWith(`${basePath}/`) ? url.slice(basePath.length) : undefined
}

/**
 * The kit's HTTP app as it is mounted: the router sees paths without the base path, while the
 * request keeps the URL the client called (`originalUrl`), which is what a merchant signed. Business
 * time follows the manual clock when there is one. The standalone host and the embedded kit both
 * serve this.
 */
export const mountedApp = (basePath: string, manualClock: ManualClock | undefined) => {
  const app = basePath === ""
    ? httpApp
    : Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
      const inner = underBasePath(request.url, basePath)
      return inner === undefined
        ? errorHttpResponse(new RouteNotFound())
        : Effect.provideService(httpApp, HttpServerRequest.HttpServerRequest, request.modify({ url: inner }))
    })
  return manualClock === undefined ? app : app.pipe(Effect.withClock(manualClock.clock))
}
