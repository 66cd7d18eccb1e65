import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import { requireAdminToken } from "./endpoint/admin-endpoint.js"
import { MethodNotAllowed, RouteNotFound } from "./response/edge-errors.js"
import { withRequestEdge } from "./request/request-edge.js"
import { errorHttpResponse, serverErrorHttpResponse } from "./response/responses.js"
import { openApiRoutes } from "./openapi/openapi-routes.js"
import { allowedMethods, routeTemplate } from "./endpoint/route-methods.js"
import { withServerSpan } from "./request/server-span.js"
import { checkoutRoutes } from "./checkout/checkout-routes.js"
import { customerPortalRoutes } from "./customer-portal/portal-routes.js"
import { gatewayNotifyRoutes } from "./gateway-notify/gateway-notify-routes.js"
import { healthRoutes } from "./operations/health-routes.js"
import { metricsRoutes } from "./operations/metrics-routes.js"
import { adminApi } from "./admin-api/admin-api.js"
import { merchantApi } from "./merchant-api/merchant-api.js"
import { endpointRoutes } from "./endpoint/endpoint-routes.js"
import { dashboardRoutes } from "./dashboard/dashboard-routes.js"

const ADMIN_PREFIX = "/admin/v1"

export const router = HttpRouter.concatAll(
  endpointRoutes(merchantApi),
  endpointRoutes(adminApi),
  healthRoutes,
  metricsRoutes,
  checkoutRoutes,
  customerPortalRoutes,
  dashboardRoutes,
  gatewayNotifyRoutes,
  openApiRoutes
)

const methodsAt = allowedMethods(router as HttpRouter.HttpRouter<unknown, unknown>)
const templateAt = routeTemplate(router as HttpRouter.HttpRouter<unknown, unknown>)

/**
 * What a request no route took is told: under /admin/v1 nothing, not even whether the path exists,
 * without the token (401); then 405 with `Allow` when the path exists under other methods; else 404.
 */
const unrouted = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const queryStart = request.url.indexOf("?")
  const pathname = queryStart === -1 ? request.url : request.url.slice(0, queryStart)
  if (pathname === ADMIN_PREFIX || pathname.startsWith(`${ADMIN_PREFIX}/`)) yield* requireAdminToken
  const allow = methodsAt(pathname)
  if (allow.length > 0 && !allow.includes(request.method)) return yield* new MethodNotAllowed({ allow })
  return yield* new RouteNotFound()
}).pipe(Effect.catchAll(errorHttpResponse))

/**
 * The whole HTTP surface as one app. Unrouted requests answer 401, 405 or 404 in the JSON error
 * body; anything that escaped every handler (a defect) is logged and answered as a bare 500, never
 * with its details. Unread request bodies are drained before answering, every request is logged
 * once under its request id and counted under its route template, and, when tracing is on, is one
 * server span named by its route.
 */
export const httpApp = router.pipe(
  Effect.catchTag("RouteNotFound", () => unrouted),
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Effect.zipRight(Effect.logError("request failed unexpectedly", cause), serverErrorHttpResponse)),
  withRequestEdge(templateAt),
  withServerSpan(templateAt, ["/healthz", "/readyz"])
)
