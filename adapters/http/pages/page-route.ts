import * as HttpRouter from "@effect/platform/HttpRouter"
import { RouteNotFound } from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { withSpanWhenTraced } from "../../../core/shared/trace-context.js"
import type { Parameter } from "../contract/parameters.js"
import { routerPath } from "../endpoint/endpoint-routes.js"
import type { Operation, OtherResponse, Security } from "../openapi/operation.js"

export type PageHandler = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>

/**
 * One page, form or asset of a room (checkout, the dashboard), declared once: its route and its
 * entry in the OpenAPI document both follow from this, as an API endpoint's do from its declaration.
 */
export interface PageRoute<H extends PageHandler = PageHandler> {
  readonly method: "get" | "post"
  /** The OpenAPI path template, `{name}` for each path parameter. */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly success: OtherResponse
  readonly others?: ReadonlyArray<OtherResponse>
  readonly handler: H
}

/** What a room says of all its pages in the OpenAPI document. */
export interface PageRoom {
  readonly tag: string
  readonly security: (page: PageRoute) => Security
  /** Answers every page of the room may give besides its own (a redirect to sign in). */
  readonly others?: (page: PageRoute) => ReadonlyArray<OtherResponse>
}

/** The page's entry in the OpenAPI document. */
export const pageOperation = (room: PageRoom) => (page: PageRoute): Operation => ({
  method: page.method,
  path: page.path,
  operationId: page.operationId,
  summary: page.summary,
  ...(page.description !== undefined ? { description: page.description } : {}),
  tag: room.tag,
  security: room.security(page),
  ...(page.parameters !== undefined ? { parameters: page.parameters } : {}),
  success: page.success,
  others: [...(room.others?.(page) ?? []), ...(page.others ?? [])]
})

/**
 * A path parameter the router does not read: pageRouter matches the pages that have one itself, each
 * segment by its parameter's `pattern`. The router refuses path parameters over 100 characters (its
 * maxParamLength, one setting for every route of the app), and a signed checkout token is longer.
 */
export interface PatternedParameter extends Parameter {
  readonly in: "path"
  /** The whole segment's shape, anchored: a segment it does not match names no page. */
  readonly pattern: RegExp
}

const isPatterned = (parameter: Parameter): parameter is PatternedParameter => "pattern" in parameter && parameter.pattern instanceof RegExp

/** What the router's context gives a page's handler: its route, and the path parameters (`HttpRouter.params`). */
const routeContext = (route: HttpRouter.Route<unknown, unknown>, params: Readonly<Record<string, string>>): HttpRouter.RouteContext => ({
  [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId,
  params,
  route
})

const traced = (page: PageRoute) => withSpanWhenTraced(page.handler, page.operationId, { captureStackTrace: false })

/** A page matched by pageRouter: its segments after the route's fixed prefix, each a literal or a parameter's name and pattern. */
interface PatternedPage {
  readonly answer: PageHandler
  readonly segments: ReadonlyArray<string | { readonly name: string; readonly pattern: RegExp | undefined }>
}

/** The fixed part of a template, up to its first parameter (`/checkout/`). */
const prefixOf = (template: string) => template.slice(0, template.indexOf("{"))

const patternedPage = (page: PageRoute): PatternedPage => ({
  answer: traced(page),
  segments: page.path.slice(prefixOf(page.path).length).split("/").map((segment) => {
    if (!segment.startsWith("{")) return segment
    const name = segment.slice(1, -1)
    const parameter = page.parameters?.find((candidate) => candidate.in === "path" && candidate.name === name)
    return { name, pattern: parameter !== undefined && isPatterned(parameter) ? parameter.pattern : undefined }
  })
})

/** The page's path parameters when `segments` (the path after the prefix) is its address. */
const matchOf = ({ segments }: PatternedPage, path: ReadonlyArray<string>): Record<string, string> | undefined => {
  if (path.length !== segments.length) return undefined
  const params: Record<string, string> = {}
  for (let index = 0; index < segments.length; index++) {
    const segment = segments[index]!
    const text = path[index]!
    if (typeof segment === "string") {
      if (segment !== text) return undefined
    } else {
      if (text === "" || (segment.pattern !== undefined && !segment.pattern.test(text))) return undefined
      params[segment.name] = text
    }
  }
  return params
}

/**
 * The pages of one method under one prefix, routed as `prefix*` and matched here; an address there
 * that names none of them is `unmatched`'s to answer (the room's own "not found" page), else no route's.
 */
const patternedRoute = (method: "GET" | "POST", prefix: string, pages: ReadonlyArray<PatternedPage>, unmatched: PageHandler | undefined) =>
  HttpRouter.makeRoute(method, `${prefix}*` as HttpRouter.PathInput, Effect.gen(function*() {
    const context = yield* HttpRouter.RouteContext
    // The router gives the rest of the path decoded, as it gives any parameter.
    const path = (context.params["*"] ?? "").split("/")
    for (const candidate of pages) {
      const params = matchOf(candidate, path)
      if (params !== undefined) return yield* Effect.provideService(candidate.answer, HttpRouter.RouteContext, routeContext(context.route, params))
    }
    if (unmatched !== undefined) return yield* unmatched
    return yield* new RouteNotFound({ request: yield* HttpServerRequest.HttpServerRequest })
  }) as unknown as HttpRouter.Route.Handler<never, never>)

/** Where a room's own answer to an address under its patterned pages that names none of them is given. */
export interface PageRouterOptions<U extends PageHandler> {
  readonly unmatched?: U
}

/**
 * Every page as a route of one router, each answered in a span named by its operation id. A page with a
 * patterned parameter (PatternedParameter) is matched by the kit, under a route for its prefix.
 */
export const pageRouter = <const Pages extends ReadonlyArray<PageRoute>, U extends PageHandler = never>(
  pages: Pages,
  options: PageRouterOptions<U> = {}
) => {
  const patterned = (page: PageRoute) => (page.parameters ?? []).some(isPatterned)
  const direct = pages.filter((page) => !patterned(page)).map((page) =>
    HttpRouter.makeRoute(
      page.method.toUpperCase() as "GET" | "POST",
      routerPath(page.path),
      // The router's context is typed once, below, from every page's handler.
      traced(page) as unknown as HttpRouter.Route.Handler<never, never>
    ))
  const groups = new Map<string, { method: "GET" | "POST"; prefix: string; pages: Array<PatternedPage> }>()
  for (const page of pages.filter(patterned)) {
    const method = page.method.toUpperCase() as "GET" | "POST"
    const prefix = prefixOf(page.path)
    const key = `${method} ${prefix}`
    const group = groups.get(key) ?? { method, prefix, pages: [] }
    group.pages.push(patternedPage(page))
    groups.set(key, group)
  }
  const matched = [...groups.values()].map((group) => patternedRoute(group.method, group.prefix, group.pages, options.unmatched))
  return HttpRouter.fromIterable([...direct, ...matched]) as HttpRouter.HttpRouter<
    Effect.Effect.Error<Pages[number]["handler"] | U>,
    HttpRouter.HttpRouter.ExcludeProvided<Effect.Effect.Context<Pages[number]["handler"] | U>>
  >
}
