import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { ApiError } from "../response/api-error.js"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import { adminEndpoint } from "./admin-endpoint.js"
import { onTheWire } from "./wire-names.js"
import { type CurrentMerchant, merchantEndpoint } from "./merchant-endpoint.js"
import { answerOf, type Endpoint, type EndpointRequirements } from "./endpoint.js"
import { withSpanWhenTraced } from "../../../core/shared/trace-context.js"

/** The router's form of an OpenAPI path template: `{trxId}` is `:trxId`. */
export const routerPath = (template: string): HttpRouter.PathInput =>
  template.replace(/\{([^}]+)\}/g, ":$1") as HttpRouter.PathInput

// Spec 5.1: X-Environment defaults to production on the endpoints that say so.
const schemeOptions = (endpoint: Endpoint<Schema.Schema.AnyNoContext, unknown>) =>
  endpoint.security === "merchant-production-default" ? { defaultEnvironment: "production" as const } : {}

const routeOf = <R>(endpoint: Endpoint<Schema.Schema.AnyNoContext, R>) => {
  // The one place every API route reaches its use case: one span each, named by its operationId.
  const answer = answerOf(endpoint.handler, endpoint.query).pipe(
    withSpanWhenTraced(endpoint.operationId, { captureStackTrace: false }),
    Effect.map((body) => ({ status: endpoint.success.status, body })),
    Effect.mapError((error) => (error._tag === "ValidationFailed" ? onTheWire(error, endpoint.wireNames) : error))
  )
  // The router's context is typed once, by endpointRoutes, from both schemes.
  const handler: HttpRouter.Route.Handler<never, unknown> = endpoint.security === "admin"
    ? adminEndpoint<ApiError, R | HttpServerRequest.HttpServerRequest>(answer, {
      operationId: endpoint.operationId,
      path: endpoint.path,
      ...(endpoint.commitsAsItGoes === true ? { commitsAsItGoes: true } : {}),
      ...(endpoint.textBody !== undefined ? { textBody: endpoint.textBody } : {}),
      ...(endpoint.auditedRead === true ? { auditedRead: true } : {})
    })
    : merchantEndpoint<ApiError, R | HttpServerRequest.HttpServerRequest>(answer, {
      ...schemeOptions(endpoint),
      ...(endpoint.secretAnswer === true ? { neverReplayed: true } : {})
    })
  return HttpRouter.makeRoute(endpoint.method.toUpperCase() as "GET" | "POST" | "PUT" | "PATCH" | "DELETE", routerPath(endpoint.path), handler)
}

/** What the router of `R`-needing endpoints needs: theirs and the schemes', less what a route is given. */
type RoutesContext<R> = HttpRouter.HttpRouter.ExcludeProvided<
  Effect.Effect.Context<ReturnType<typeof merchantEndpoint<ApiError, R>> | ReturnType<typeof adminEndpoint<ApiError, Exclude<R, CurrentMerchant>>>>
>

/** Every endpoint as a route of one router: what a declaration needs to be answered. */
export const endpointRoutes = <const Endpoints extends ReadonlyArray<Endpoint<Schema.Schema.AnyNoContext, unknown>>>(
  endpoints: Endpoints
): HttpRouter.HttpRouter<never, RoutesContext<EndpointRequirements<Endpoints[number]>>> =>
  HttpRouter.fromIterable(endpoints.map((endpoint) => routeOf<unknown>(endpoint))) as HttpRouter.HttpRouter<never, never>
