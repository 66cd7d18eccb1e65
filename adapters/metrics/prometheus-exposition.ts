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
 * The producer and the serializer (OpenTelemetry's metrics SDK, some 300 files) load on the
 * first scrape, once: a host nobody scrapes never loads them.
 */
export const layer: Layer.Layer<MetricsExposition> = Layer.effect(
  MetricsExposition,
  Effect.map(
    Effect.cached(Effect.flatMap(Effect.promise(() => import("./prometheus-renderer.js")), (renderer) => renderer.makeRender)),
    (render) => MetricsExposition.of({ render: Effect.flatten(render) })
  )
)
