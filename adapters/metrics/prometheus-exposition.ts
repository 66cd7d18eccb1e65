import * as OtelMetrics from "@effect/opentelemetry/Metrics"
import * as Resource from "@effect/opentelemetry/Resource"
import { PrometheusSerializer } from "@opentelemetry/exporter-prometheus"
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * Every metric the process holds (Effect's one registry: the core's counters, the HTTP edge's, the
 * process gauges) in the Prometheus text format. The text is written by OpenTelemetry's Prometheus
 * serializer over @effect/opentelemetry's producer, never by hand. Reading costs the scrape alone:
 * the updates themselves are in-memory.
 */
export class MetricsExposition extends Context.Tag("merchant-payments/MetricsExposition")<MetricsExposition, {
  readonly render: Effect.Effect<string>
}>() {}

/** Prometheus' text format, the version every scraper reads. */
export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

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

export const layer: Layer.Layer<MetricsExposition> = Layer.effect(
  MetricsExposition,
  Effect.gen(function*() {
    const producer = yield* OtelMetrics.makeProducer
    // No target_info or otel_scope labels: a scraper already knows which host it scraped.
    const serializer = new PrometheusSerializer(undefined, false, undefined, true, true)
    return MetricsExposition.of({
      render: Effect.map(Effect.promise(() => producer.collect()), ({ resourceMetrics }) => serializer.serialize(published(resourceMetrics)))
    })
  })
).pipe(Layer.provide(Resource.layer({ serviceName: "merchant-payments" })))
