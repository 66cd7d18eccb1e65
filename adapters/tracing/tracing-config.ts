import type { TracerProvider } from "@opentelemetry/api"

export const DEFAULT_SERVICE_NAME = "merchant-payments"

/** The OTLP/HTTP encodings the exporter speaks; protobuf is the standard's default. */
export type OtlpProtocol = "http/protobuf" | "http/json"

/**
 * Where spans go. Absent: tracing is off, and no span is made anywhere (the default).
 * - `otlp`: the kit exports them itself, over OTLP/HTTP to `url` (the traces URL, used as given).
 * - `provider`: a platform that runs its own OpenTelemetry SDK hands over its TracerProvider (or
 *   `"global"`, the one registered with the OpenTelemetry API): its processors and exporters apply.
 */
export type TracingConfig =
  | {
    readonly kind: "otlp"
    readonly url: string
    readonly protocol: OtlpProtocol
    readonly headers: Readonly<Record<string, string>>
    readonly serviceName: string
  }
  | { readonly kind: "provider"; readonly provider: TracerProvider | "global"; readonly serviceName: string }
