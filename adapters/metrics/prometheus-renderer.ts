import * as OtelMetrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics"
import * as Effect from "effect/Effect"

/**
 * The OpenTelemetry side of `/metrics`, in a module of its own so that it loads on the first scrape
 * (prometheus-exposition.ts imports it then), not with the kit: the producer reads Effect's one
 * registry whenever it collects, so one made late sees every metric one made at start would.
 */

/**
 * Effect's own fiber metrics sit in the same registry, but move only while the runtime-metrics flag
 * is on, which the kit never turns on: they would read zero, so they are left out.
 */
const isEffectRuntimeMetric = (name: string) => name.startsWith("effect_fiber_")

/**
 * What is published, unit-less: Effect names no unit, which the producer writes as "1", and
 * Prometheus units are in the names (`_seconds`, `_bytes`), so `# UNIT` would only say "1" everywhere.
 */
const published = (metrics: ResourceMetrics): ResourceMetrics => ({
  ...metrics,
  scopeMetrics: metrics.scopeMetrics.map((scope) => ({
    ...scope,
    metrics: scope.metrics
      .filter((metric) => !isEffectRuntimeMetric(metric.descriptor.name))
      .map((metric) => ({ ...metric, descriptor: { ...metric.descriptor, unit: "" } }))
  }))
})

/** Every metric the process holds in the Prometheus text format, on each run of the returned effect. */
export const makeRender: Effect.Effect<Effect.Effect<string>> = Effect.gen(function*() {
  const producer = yield* OtelMetrics.makeProducer
  // No target_info or otel_scope labels: a scraper already knows which host it scraped.
  const serializer = new PrometheusSerializer(undefined, false, undefined, true, true)
  return Effect.map(Effect.promise(() => producer.collect()), ({ resourceMetrics }) => serializer.serialize(published(resourceMetrics)))
}).pipe(Effect.provide(Resource.layer({ serviceName: "merchant-payments" })))
