import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as Chunk from "effect/Chunk"

interface RoutePattern {
  readonly method: string
  readonly path: string
  readonly segments: ReadonlyArray<string>
}

const segmentsOf = (path: string): ReadonlyArray<string> => path.split("/").filter((segment) => segment !== "")

/** Every route of a router with its mount prefixes applied; mounted apps that are not routers are skipped. */
const patternsOf = (router: HttpRouter.HttpRouter<unknown, unknown>, prefix: string): ReadonlyArray<RoutePattern> => [
  ...Chunk.toReadonlyArray(router.routes).map((route) => ({ method: route.method, path: prefix + route.path, segments: segmentsOf(prefix + route.path) })),
  ...Chunk.toReadonlyArray(router.mounts).flatMap(([path, app]) =>
    "routes" in app && "mounts" in app ? patternsOf(app as unknown as HttpRouter.HttpRouter<unknown, unknown>, prefix + path) : [])
]

/** The router's own path syntax, as far as the kit uses it: `:param` is one segment, a final `*` the rest. */
const matches = (pattern: ReadonlyArray<string>, path: ReadonlyArray<string>): boolean => {
  for (let index = 0; index < pattern.length; index++) {
    const segment = pattern[index]!
    if (segment === "*") return true
    if (index >= path.length) return false
    if (!segment.startsWith(":") && segment !== path[index]) return false
  }
  return pattern.length === path.length
}

/**
 * Which methods a path answers, for the `Allow` header of a 405: read once from the router itself, so
 * a new route is covered without being listed again. HEAD is answered wherever GET is (the router
 * falls back to it).
 */
export const allowedMethods = (router: HttpRouter.HttpRouter<unknown, unknown>) => {
  const patterns = patternsOf(router, "")
  return (pathname: string): ReadonlyArray<string> => {
    const path = segmentsOf(pathname)
    const methods = new Set(patterns.filter((pattern) => matches(pattern.segments, path)).map((pattern) => pattern.method))
    if (methods.has("GET")) methods.add("HEAD")
    return [...methods].sort()
  }
}

const looseness = (pattern: RoutePattern): number => pattern.segments.filter((segment) => segment.startsWith(":") || segment === "*").length

/**
 * The route template a request is answered by (`/api/v1/verify-payment/:trxId`), read from the router
 * like `allowedMethods`: metrics and traces name a request by it, never by the identifiers and tokens
 * in its path. Where a literal and a parameter both match (`/events/recover`, `/events/:eventId`) the
 * literal wins, as in the router; HEAD takes GET's route. Undefined when no route matches.
 */
export const routeTemplate = (router: HttpRouter.HttpRouter<unknown, unknown>) => {
  const patterns = patternsOf(router, "")
  return (method: string, pathname: string): string | undefined => {
    const path = segmentsOf(pathname)
    const routed = method === "HEAD" ? "GET" : method
    // One pass, nothing allocated: every request of the kit asks.
    let best: RoutePattern | undefined
    for (const pattern of patterns) {
      if ((pattern.method !== routed && pattern.method !== "*") || !matches(pattern.segments, path)) continue
      if (best === undefined || looseness(pattern) < looseness(best)) best = pattern
    }
    return best?.path
  }
}
