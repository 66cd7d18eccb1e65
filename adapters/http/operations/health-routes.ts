import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { Readiness } from "../../../core/shared/readiness.js"
import { StoreHealth } from "../../../core/shared/store-health.js"
import { type Health, type Readiness as ReadinessBody } from "../contract/payment-resources.js"
import { StoreUnavailable } from "../response/edge-errors.js"
import { errorHttpResponse } from "../response/responses.js"

/**
 * Unauthenticated. Liveness: 200 while the store answers, 503 when it does not. Readiness: 200 while
 * the store answers in time with every migration applied and the host is not shutting down, else 503
 * with the reason.
 */
export const healthRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/healthz",
    Effect.flatMap(StoreHealth, (health) => health.ping).pipe(
      Effect.as(HttpServerResponse.unsafeJson({ status: "ok" } satisfies typeof Health.Type)),
      Effect.catchAll(() => errorHttpResponse(new StoreUnavailable()))
    )
  ),
  HttpRouter.get(
    "/readyz",
    Effect.map(Effect.flatMap(Readiness, (readiness) => readiness.check), (verdict) =>
      verdict.ready
        ? HttpServerResponse.unsafeJson({ status: "ready" } satisfies typeof ReadinessBody.Type)
        : HttpServerResponse.unsafeJson({ status: "not_ready", reason: verdict.reason } satisfies typeof ReadinessBody.Type, {
          status: 503,
          headers: { "retry-after": "1" }
        }))
  )
)
