import * as HttpRouter from "@effect/platform/HttpRouter"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Parameter } from "../contract/parameters.js"
import { routerPath } from "../endpoint/endpoint-routes.js"
import type { Operation, OtherResponse } from "../openapi/operation.js"
import { withSpanWhenTraced } from "../../../core/shared/trace-context.js"

type PageHandler = Effect.Effect<HttpServerResponse.HttpServerResponse, unknown, unknown>

/**
 * One dashboard page or form, declared once: its route and its entry in the OpenAPI document
 * (tag "Merchant dashboard") both follow from this, as an API endpoint's do from its declaration.
 */
export interface DashboardPage<H extends PageHandler = PageHandler> {
  readonly method: "get" | "post"
  /** The OpenAPI path template, `{name}` for each path parameter. */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<Parameter>
  /** Behind the dashboard's session (or the platform's sign-in); the sign-in pages and assets are for anyone. */
  readonly signedIn: boolean
  readonly success: OtherResponse
  readonly others?: ReadonlyArray<OtherResponse>
  readonly handler: H
}

export const dashboardPage = <H extends PageHandler>(page: DashboardPage<H>): DashboardPage<H> => page

/** A path parameter of a dashboard page: text the page looks up within the visitor's merchant. */
export const pathText = (name: string, description: string): Parameter => ({
  name,
  in: "path",
  required: true,
  description,
  schema: Schema.String
})

export const HTML_PAGE = "text/html"

/** What every signed-in page may answer besides itself. */
const SIGNED_IN_OTHERS: ReadonlyArray<OtherResponse> = [
  { status: 303, description: "Not signed in: to the sign-in page (the platform's, when it signs people in)." }
]

/** The page's entry in the OpenAPI document. */
export const dashboardOperation = (page: DashboardPage): Operation => ({
  method: page.method,
  path: page.path,
  operationId: page.operationId,
  summary: page.summary,
  ...(page.description !== undefined ? { description: page.description } : {}),
  tag: "Merchant dashboard",
  security: page.signedIn ? "dashboard" : "none",
  ...(page.parameters !== undefined ? { parameters: page.parameters } : {}),
  success: page.success,
  others: [...(page.signedIn ? SIGNED_IN_OTHERS : []), ...(page.others ?? [])]
})

/** Every page as a route of one router, each answered in a span named by its operation id. */
export const dashboardRouter = <const Pages extends ReadonlyArray<DashboardPage>>(pages: Pages) =>
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
