import { describe, expect, it } from "vitest"
import { ConfigProblem, readHostConfig } from "./host-config.js"
import { createMerchantPayments, MerchantPaymentsConfigError, type MerchantPaymentsOptions } from "./index.js"

const refusal = async (tracing: unknown): Promise<MerchantPaymentsConfigError> => {
  const options = { database: "sqlite::memory:", masterKey: "33".repeat(32), baseUrl: "https://shop.example", tracing } as MerchantPaymentsOptions
  const error = await createMerchantPayments(options).then(() => undefined, (error: unknown) => error)
  expect(error).toBeInstanceOf(MerchantPaymentsConfigError)
  return error as MerchantPaymentsConfigError
}

describe("the tracing option", () => {
  it("names the part of a bad tracing option, never a TypeError", async () => {
    expect((await refusal("on")).option).toBe("tracing")
    expect((await refusal({})).option).toBe("tracing.endpoint")
    expect((await refusal({ endpoint: "collector:4318" })).message).toMatch(/^tracing.endpoint must be an http\(s\) URL/)
    expect((await refusal({ endpoint: "http://collector:4318/v1/traces", protocol: "grpc" })).option).toBe("tracing.protocol")
    expect((await refusal({ endpoint: "http://collector:4318/v1/traces", headers: { "bad name": "x" } })).option).toBe("tracing.headers")
    expect((await refusal({ endpoint: "http://collector:4318/v1/traces", sampler: 0.1 })).option).toBe("tracing.sampler")
    expect((await refusal({ tracerProvider: {} })).option).toBe("tracing.tracerProvider")
    expect((await refusal({ tracerProvider: "global", endpoint: "http://collector:4318/v1/traces" })).option).toBe("tracing.endpoint")
    expect((await refusal({ tracerProvider: "global", serviceName: "" })).option).toBe("tracing.serviceName")
  })
})

describe("the standard OpenTelemetry variables of the standalone host", () => {
  it("traces nothing without an endpoint, or with the SDK disabled", () => {
    expect(readHostConfig({}).tracing).toBeUndefined()
    expect(readHostConfig({ OTEL_SERVICE_NAME: "shop" }).tracing).toBeUndefined()
    expect(readHostConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }).tracing).toBeUndefined()
  })

  it("adds the traces path to the base endpoint and takes a traces endpoint as given", () => {
    expect(readHostConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }).tracing).toEqual({
      endpoint: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      headers: {},
      serviceName: "merchant-payments"
    })
    expect(readHostConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "api-key=a%20b, X-Team=payments",
      OTEL_SERVICE_NAME: "shop-payments"
    }).tracing).toEqual({
      endpoint: "https://traces.example/otlp",
      protocol: "http/json",
      headers: { "api-key": "a b", "x-team": "payments" },
      serviceName: "shop-payments"
    })
  })

  it("names a bad variable, without echoing credentials in its URL or header values", () => {
    const problem = (env: NodeJS.ProcessEnv) => {
      try {
        readHostConfig(env)
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigProblem)
        return (error as Error).message
      }
      throw new Error("expected a ConfigProblem")
    }
    expect(problem({ OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://user:secret@collector:4317" }))
      .toBe(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL such as http://collector:4318, got "grpc://***@collector:4317"`)
    expect(problem({ OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toMatch(/^OTEL_EXPORTER_OTLP_PROTOCOL must be one of http\/protobuf, http\/json/)
    const headers = problem({ OTEL_EXPORTER_OTLP_HEADERS: "api-key=%E0%A4%A" })
    expect(headers).toMatch(/^OTEL_EXPORTER_OTLP_HEADERS has a value for api-key/)
  })
})
