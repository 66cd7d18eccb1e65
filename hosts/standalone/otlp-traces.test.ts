import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { CALLER_SPAN_ID, CALLER_TRACE_ID, CALLER_TRACEPARENT } from "../../adapters/tracing/testing/traced-payment.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { currentReceiverUrl, received, resetReceiver, startHost, stop, waitFor } from "../../testing/hosts/child-hosts.js"
import { completedPayment, readDemo, signedCall } from "../../testing/hosts/demo-fixtures.js"

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

interface OtlpExport {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: { readonly stringValue?: string } }> }
    readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<OtlpSpan> }>
  }>
}

const exports = () => received.filter((request) => request.path === "/v1/traces")
const exportedSpans = () =>
  exports().flatMap((request) => (JSON.parse(request.text) as OtlpExport).resourceSpans.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)))

/**
 * The standalone host with the standard OTLP variables, exporting to a loopback receiver: the span tree
 * of one signed initiate, and the flush on SIGTERM. Needs `npm run build` (run once in beforeAll).
 */
describe("standalone host: traces over OTLP/HTTP", () => {
  const scratch = childHostSuite("mp-otlp-traces-")

  it("exports one trace per request (JSON), joined to the caller's, and flushes it on SIGTERM", async () => {
    resetReceiver([])
    const dataDir = join(scratch(), "json")
    mkdirSync(dataDir)
    const host = await startHost(dataDir, {
      OTEL_EXPORTER_OTLP_ENDPOINT: currentReceiverUrl(),
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_SERVICE_NAME: "payments-under-test"
    })
    const demo = readDemo(dataDir)
    const initiated = await signedCall(host.url, demo, "POST", "/api/v1/initiate-payment", {
      body: {
        payment_amount: 100,
        currency_code: "USD",
        ref_trx: "otlp-1",
        success_redirect: "https://example.com/ok",
        cancel_redirect: "https://example.com/c",
        ipn_url: `${currentReceiverUrl()}/ipn`
      },
      headers: { traceparent: CALLER_TRACEPARENT }
    })
    expect(initiated.status, initiated.text).toBe(200)
    await completedPayment(host, demo, "otlp-2")
    const delivery = await waitFor("a webhook delivery", 15_000, () => received.find((request) => request.path === "/ipn"))
    await stop(host)
    expect(host.child.exitCode).toBe(0)

    const resource = (JSON.parse(exports()[0]!.text) as OtlpExport).resourceSpans[0]!.resource
    expect(resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "payments-under-test" } })
    const spans = exportedSpans()
    const server = spans.find((span) => span.name === "POST /api/v1/initiate-payment" && span.traceId === CALLER_TRACE_ID)
    expect(server, spans.map((span) => span.name).join(", ")).toBeDefined()
    expect(server!.parentSpanId).toBe(CALLER_SPAN_ID)
    expect(spans.filter((span) => span.name.startsWith("http.server"))).toEqual([])
    const useCase = spans.find((span) => span.name === "initiatePayment" && span.parentSpanId === server!.spanId)
    expect(useCase).toBeDefined()
    expect(spans.filter((span) => span.name === "sql.execute" && span.parentSpanId === useCase!.spanId).length).toBeGreaterThan(0)

    // The delivery's traceparent names an exported attempt span: flushed at shutdown if not before.
    const [, traceId, spanId] = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(delivery.headers["traceparent"]))!
    expect(spans.find((span) => span.spanId === spanId)).toMatchObject({ traceId, name: "webhook attempt" })
  }, 60_000)

  it("speaks protobuf by default to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, as given", async () => {
    resetReceiver([])
    const dataDir = join(scratch(), "protobuf")
    mkdirSync(dataDir)
    const host = await startHost(dataDir, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${currentReceiverUrl()}/v1/traces` })
    const call = await signedCall(host.url, readDemo(dataDir), "GET", "/api/v1/site-info")
    expect(call.status).toBe(200)
    await stop(host)
    const sent = exports()
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.every((request) => request.headers["content-type"] === "application/x-protobuf" && request.rawBody.length > 0)).toBe(true)
    // The route's name is in the encoded spans; the signature the call carried is not.
    const encoded = Buffer.concat(sent.map((request) => request.rawBody))
    expect([encoded.includes("GET /api/v1/site-info"), encoded.includes(call.signature.slice("sha256=".length))]).toEqual([true, false])
  }, 60_000)
})
