import { HttpRouter } from "@effect/platform"
import { Effect, type Schema } from "effect"
import type { ApiError } from "../response/api-error.js"
import { merchantEndpoint } from "./merchant-endpoint.js"
import type { Endpoint, EndpointRequirements } from "./endpoint.js"

/** The router's form of an OpenAPI path template: `{trxId}` is `:trxId`. */
export const routerPath = (template: string): HttpRouter.PathInput =>
  template.replace(/\{([^}]+)\}/g, ":$1") as HttpRouter.PathInput

// Spec 5.1: X-Environment defaults to production on the endpoints that say so.
const schemeOptions = (endpoint: Endpoint<Schema.Schema.AnyNoContext, unknown>) =>
  endpoint.security === "merchant-production-default" ? { defaultEnvironment: "production" as const } : {}

const routeOf = <R>(endpoint: Endpoint<Schema.Schema.AnyNoContext, R>) =>
  HttpRouter.makeRoute(
    endpoint.method.toUpperCase() as "GET" | "POST" | "PUT" | "PATCH",
    routerPath(endpoint.path),
    merchantEndpoint(Effect.map(endpoint.handler, (body) => ({ status: endpoint.success.status, body })), schemeOptions(endpoint))
  )

/** What the router of `R`-needing endpoints needs: theirs and the signed scheme's, less what a route is given. */
type RoutesContext<R> = HttpRouter.HttpRouter.ExcludeProvided<Effect.Effect.Context<ReturnType<typeof merchantEndpoint<ApiError, R>>>>

/** Every endpoint as a route of one router: what a declaration needs to be answered. */
export const endpointRoutes = <const Endpoints extends ReadonlyArray<Endpoint<Schema.Schema.AnyNoContext, unknown>>>(
  endpoints: Endpoints
): HttpRouter.HttpRouter<never, RoutesContext<EndpointRequirements<Endpoints[number]>>> =>
  HttpRouter.fromIterable(endpoints.map((endpoint) => routeOf<unknown>(endpoint))) as HttpRouter.HttpRouter<never, never>
