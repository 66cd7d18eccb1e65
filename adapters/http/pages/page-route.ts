import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import type * as Effect from "effect/Effect"
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

/** Every page as a route of one router, each answered in a span named by its operation id. */
export const pageRouter = <const Pages extends ReadonlyArray<PageRoute>>(pages: Pages) =>
  HttpRouter.fromIterable(pages.map((page) =>
    HttpRouter.makeRoute(
      page.method.toUpperCase() as "GET" | "POST",
      routerPath(page.path),
      // The router's context is typed once, below, from every page's handler.
      withSpanWhenTraced(page.handler, page.operationId, { captureStackTrace: false }) as unknown as HttpRouter.Route.Handler<never, never>
    ))) as HttpRouter.HttpRouter<
      Effect.Effect.Error<Pages[number]["handler"]>,
      HttpRouter.HttpRouter.ExcludeProvided<Effect.Effect.Context<Pages[number]["handler"]>>
    >
