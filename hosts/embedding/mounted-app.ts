import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { httpApp } from "../../adapters/http/app.js"
import { RouteNotFound } from "../../adapters/http/response/edge-errors.js"
import { pathAndQuery } from "../../adapters/http/request/request-target.js"
import { errorHttpResponse } from "../../adapters/http/response/responses.js"
import type { ManualClock } from "../../core/shared/manual-clock.js"

/** The path under the base path, or undefined when the request is not the kit's. */
export const underBasePath = (requestUrl: string, basePath: string): string | undefined => {
  const url = pathAndQuery(requestUrl)
  if (basePath === "") return url
  if (url === basePath || url.startsWith(`${basePath}?`)) return `/${url.slice(basePath.length)}`
  return url.startsWith(`${basePath}/`) ? url.slice(basePath.length) : undefined
}

/**
 * The kit's HTTP app as it is mounted: the router sees paths without the base path, while the
 * request keeps the URL the client called (`originalUrl`): a merchant signs either one. Business
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
