import * as Either from "effect/Either"
import type { OtlpProtocol } from "../../adapters/tracing/tracing-config.js"

/** What a variable's text means, or why it cannot be read (said after the variable's name). */
type Reader<A> = (text: string) => Either.Either<A, string>

/** The standalone host's traces, from the OpenTelemetry standard's variables: the `tracing` option. */
export interface OtlpTracingOptions {
  readonly endpoint: string
  readonly protocol: OtlpProtocol
  readonly headers: Readonly<Record<string, string>>
  readonly serviceName: string
}

/** An OTLP endpoint: http(s) only (the exporter speaks OTLP over HTTP). */
export const otlpUrl: Reader<string> = (value) =>
  URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)
    ? Either.right(value)
    : Either.left(`must be an http(s) URL such as http://collector:4318, got "${value.replace(/\/\/.*@/, "//***@")}"`)

/** OTEL_EXPORTER_OTLP_HEADERS: `name=value` pairs, comma-separated, values percent-encoded (the standard's form). */
export const otlpHeaders: Reader<Readonly<Record<string, string>>> = (value) => {
  const headers: Record<string, string> = {}
  for (const pair of value.split(",").map((item) => item.trim()).filter((item) => item !== "")) {
    const equals = pair.indexOf("=")
    const name = pair.slice(0, equals).trim()
    if (equals <= 0 || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return Either.left("must be name=value pairs separated by commas")
    try {
      headers[name.toLowerCase()] = decodeURIComponent(pair.slice(equals + 1).trim())
    } catch {
      return Either.left(`has a value for ${name} that is not percent-encoded text`)
    }
  }
  return Either.right(headers)
}

/** The standard's base endpoint takes the signal's path; a _TRACES_ endpoint is the whole URL. */
const tracesUrl = (base: string): string => `${base.replace(/\/+$/, "")}/v1/traces`

/** Traces when an endpoint is set (the _TRACES_ forms win, as the standard says) and the SDK is not disabled. */
export const tracingOf = (read: {
  readonly otlpEndpoint: string | undefined
  readonly otlpTracesEndpoint: string | undefined
  readonly otlpProtocol: OtlpProtocol | undefined
  readonly otlpTracesProtocol: OtlpProtocol | undefined
  readonly otlpHeaders: Readonly<Record<string, string>>
  readonly otlpTracesHeaders: Readonly<Record<string, string>>
  readonly serviceName: string
  readonly sdkDisabled: boolean
}): OtlpTracingOptions | undefined => {
  const endpoint = read.otlpTracesEndpoint ?? (read.otlpEndpoint !== undefined ? tracesUrl(read.otlpEndpoint) : undefined)
  if (endpoint === undefined || read.sdkDisabled) return undefined
  return {
    endpoint,
    protocol: read.otlpTracesProtocol ?? read.otlpProtocol ?? "http/protobuf",
    headers: { ...read.otlpHeaders, ...read.otlpTracesHeaders },
    serviceName: read.serviceName
  }
}
