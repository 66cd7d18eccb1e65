import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpMiddleware from "@effect/platform/HttpMiddleware"
import type { TracerProvider } from "@opentelemetry/api"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { TracingConfig } from "./tracing-config.js"

/**
 * The platform's own server span records the full URL, its query and most request headers (signatures,
 * merchant keys): it stays off whatever the setting, and the kit's server span (route template only)
 * stands in for it.
 */
const platformServerSpanOff = Layer.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)

/** An SDK provider's own flush, when it has one; the API's interface does not promise it. */
const forceFlush = async (provider: TracerProvider): Promise<void> => {
  const flushable = provider as { readonly forceFlush?: () => Promise<void>; readonly getDelegate?: () => TracerProvider }
  if (typeof flushable.forceFlush === "function") return flushable.forceFlush()
  if (typeof flushable.getDelegate === "function" && flushable.getDelegate() !== provider) return forceFlush(flushable.getDelegate())
}

/**
 * The exporter's modules are imported only here, once tracing is configured: an app that never turns it
 * on never loads them.
 */
const otlpExport = (config: Extract<TracingConfig, { kind: "otlp" }>) =>
  Layer.unwrapEffect(Effect.promise(async () => {
    const [OtlpTracer, OtlpSerialization] = await Promise.all([
      import("@effect/opentelemetry/OtlpTracer"),
      import("@effect/opentelemetry/OtlpSerialization")
    ])
    return OtlpTracer.layer({
      url: config.url,
      resource: { serviceName: config.serviceName },
      headers: config.headers,
      // Spans leave in batches; whatever is left when the kit closes is sent then, within this time.
      exportInterval: "2 seconds",
      shutdownTimeout: "5 seconds"
    }).pipe(
      Layer.provide(config.protocol === "http/json" ? OtlpSerialization.layerJson : OtlpSerialization.layerProtobuf),
      Layer.provide(FetchHttpClient.layer)
    )
  }))

/** Spans handed to the platform's provider, flushed (never shut down: it is the platform's) at close. */
const providerExport = (config: Extract<TracingConfig, { kind: "provider" }>) =>
  Layer.unwrapEffect(Effect.promise(async () => {
    const [{ trace }, Tracer, Resource] = await Promise.all([
      import("@opentelemetry/api"),
      import("@effect/opentelemetry/Tracer"),
      import("@effect/opentelemetry/Resource")
    ])
    const provider = config.provider === "global" ? trace.getTracerProvider() : config.provider
    const flushOnClose = Layer.scopedDiscard(Effect.addFinalizer(() => Effect.promise(() => forceFlush(provider).catch(() => undefined))))
    return Layer.mergeAll(
      Tracer.layer.pipe(Layer.provide(Layer.succeed(Tracer.OtelTracerProvider, provider))),
      flushOnClose
    ).pipe(Layer.provide(Resource.layer({ serviceName: config.serviceName })))
  }))

/**
 * Tracing for the whole kit, provided beneath everything so it is built first and closed last (the
 * spans of shutdown are exported too). Off, the tracer is disabled outright: spans cost about half the
 * throughput even when nothing reads them.
 */
export const tracingLayer = (config: TracingConfig | undefined): Layer.Layer<never> =>
  Layer.merge(
    platformServerSpanOff,
    config === undefined
      ? Layer.setTracerEnabled(false)
      : Layer.discard(config.kind === "otlp" ? otlpExport(config) : providerExport(config))
  )
