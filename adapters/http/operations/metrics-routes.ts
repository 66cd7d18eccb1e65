import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { sampleReserveHeld } from "../../../core/balances/reserve-sample.js"
import { sampleQueueDepth } from "../../../core/webhooks/queue-depth.js"
import { CONTENT_TYPE, MetricsExposition } from "../../metrics/prometheus-exposition.js"
import { ProcessMetrics } from "../../metrics/process-metrics.js"
import { requireAdminToken } from "../endpoint/admin-endpoint.js"
import { MetricsSettings } from "../request/request-metrics.js"
import { RouteNotFound } from "../response/edge-errors.js"
import { errorHttpResponse } from "../response/responses.js"

/**
 * `GET /metrics`, the Prometheus scrape: behind the admin token unless the operator made it public,
 * absent (404) when metrics are off. Figures that live elsewhere (the store's queue and reserve, the process) are
 * sampled now, then everything is written out.
 */
export const metricsRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/metrics",
    Effect.gen(function*() {
      const settings = yield* MetricsSettings
      if (!settings.enabled) return yield* new RouteNotFound()
      if (!settings.public) yield* requireAdminToken
      yield* sampleQueueDepth
      yield* sampleReserveHeld
      yield* (yield* ProcessMetrics).sample
      const text = yield* (yield* MetricsExposition).render
      return HttpServerResponse.text(text, { contentType: CONTENT_TYPE, headers: { "cache-control": "no-store" } })
    }).pipe(Effect.catchAll(errorHttpResponse))
  )
)
