import type { TracerProvider } from "@opentelemetry/api"
import { DEFAULT_SERVICE_NAME, type OtlpProtocol, type TracingConfig } from "../../adapters/tracing/tracing-config.js"
import { describe, expectObject, expectOneOf, expectString, isPlainObject, problem } from "./option-checks.js"

/** `createMerchantPayments({ tracing })`: where the kit's spans go. Without it, no span is made. */
export interface TracingOptions {
  /** The OTLP/HTTP traces URL, used as given: `http://collector:4318/v1/traces`. */
  readonly endpoint?: string
  /** How spans are encoded for `endpoint`: `http/protobuf` (default) or `http/json`. */
  readonly protocol?: OtlpProtocol
  /** Headers sent with every export to `endpoint`, such as a collector's API key. */
  readonly headers?: Readonly<Record<string, string>>
  /** The `service.name` spans carry (default `merchant-payments`). */
  readonly serviceName?: string
  /**
   * Instead of `endpoint`: the app's own OpenTelemetry TracerProvider (its processors, sampler and
   * exporters apply), or `"global"` for the one registered with the OpenTelemetry API. `close()`
   * flushes it and leaves it running: it is the app's.
   */
  readonly tracerProvider?: TracerProvider | "global"
}

const PROTOCOLS: ReadonlyArray<OtlpProtocol> = ["http/protobuf", "http/json"]
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const checkHeaders = (value: unknown): Readonly<Record<string, string>> => {
  if (value === undefined) return {}
  if (!isPlainObject(value)) return problem("tracing.headers", `tracing.headers must be an object of header names to text, got ${describe(value)}`)
  for (const [name, text] of Object.entries(value)) {
    if (!HEADER_NAME.test(name) || typeof text !== "string" || /[\r\n]/.test(text)) {
      problem(`tracing.headers`, `tracing.headers must map header names to one-line text; "${name}" does not`)
    }
  }
  return value as Readonly<Record<string, string>>
}

const isProvider = (value: unknown): value is TracerProvider =>
  typeof value === "object" && value !== null && typeof (value as { readonly getTracer?: unknown }).getTracer === "function"

/** The `tracing` option, checked and read: a `MerchantPaymentsConfigError` naming the option when wrong. */
export const tracingOf = (value: TracingOptions | undefined): TracingConfig | undefined => {
  const tracing = expectObject("tracing", value, ["endpoint", "protocol", "headers", "serviceName", "tracerProvider"])
  if (tracing === undefined) return undefined
  expectString("tracing.serviceName", tracing["serviceName"], false)
  const serviceName = (tracing["serviceName"] as string | undefined) ?? DEFAULT_SERVICE_NAME
  const provider = tracing["tracerProvider"]
  const endpoint = tracing["endpoint"]
  if (provider !== undefined) {
    if (endpoint !== undefined) problem("tracing.endpoint", "tracing takes an endpoint or a tracerProvider, not both: the provider's own exporters send the spans")
    if (provider !== "global" && !isProvider(provider)) {
      problem("tracing.tracerProvider", `tracing.tracerProvider must be an OpenTelemetry TracerProvider (with getTracer) or "global", got ${describe(provider)}`)
    }
    return { kind: "provider", provider: provider as TracerProvider | "global", serviceName }
  }
  if (endpoint === undefined) return problem("tracing.endpoint", "tracing needs an endpoint (an OTLP/HTTP traces URL such as http://collector:4318/v1/traces) or a tracerProvider")
  if (typeof endpoint !== "string" || !URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol)) {
    return problem("tracing.endpoint", `tracing.endpoint must be an http(s) URL such as http://collector:4318/v1/traces, got ${describe(typeof endpoint === "string" ? endpoint.replace(/\/\/.*@/, "//***@") : endpoint)}`)
  }
  expectOneOf("tracing.protocol", tracing["protocol"], PROTOCOLS)
  return {
    kind: "otlp",
    url: endpoint,
    protocol: (tracing["protocol"] as OtlpProtocol | undefined) ?? "http/protobuf",
    headers: checkHeaders(tracing["headers"]),
    serviceName
  }
}
