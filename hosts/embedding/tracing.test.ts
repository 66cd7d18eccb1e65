import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pressButton } from "../../conformance/gateway/html-forms.js"
import {
  CALLER_SPAN_ID,
  CALLER_TRACE_ID,
  CALLER_TRACEPARENT,
  initiateBody,
  listen,
  onboard,
  signedCall,
  waitFor,
  webhookReceiver
} from "../../adapters/tracing/testing/traced-payment.js"
import { createMerchantPayments, type IssuedCredentials, type MerchantPayments } from "./index.js"

const exporter = new InMemorySpanExporter()
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })

const spans = () => exporter.getFinishedSpans()
const named = (name: string) => spans().filter((span) => span.name === name)
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId
const childrenOf = (parent: ReadableSpan) => spans().filter((span) => parentOf(span) === parent.spanContext().spanId)
const descendantsOf = (parent: ReadableSpan): ReadonlyArray<ReadableSpan> =>
  childrenOf(parent).flatMap((child) => [child, ...descendantsOf(child)])

const form = (fields: Readonly<Record<string, string>>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const
})

describe("tracing through the platform's own TracerProvider", () => {
  let scratch = ""
  let payments: MerchantPayments
  let server: Server
  let origin = ""
  let credentials: IssuedCredentials
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "mp-traces-"))
    receiver = await webhookReceiver()
    server = createServer((request, response) => payments.handler(request, response))
    origin = await listen(server)
    payments = await createMerchantPayments({
      database: `sqlite:${join(scratch, "payments.db")}`,
      masterKey: "22".repeat(32),
      baseUrl: origin,
      webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50 },
      logging: false,
      tracing: { tracerProvider: provider, serviceName: "shop-payments" }
    })
    credentials = await onboard(payments)
  }, 60_000)
  afterAll(async () => {
    await payments.close()
    await receiver.close()
    await new Promise((resolve) => server.close(resolve))
    rmSync(scratch, { recursive: true, force: true })
  })

  it("makes one trace of a signed initiate: the caller's span, the route's server span, the use case, its SQL", async () => {
    exporter.reset()
    const initiated = await signedCall(origin, credentials, "POST", "/api/v1/initiate-payment", initiateBody("traced-1", `${receiver.url}/ipn`), {
      traceparent: CALLER_TRACEPARENT
    })
    expect(initiated.status, JSON.stringify(initiated.json)).toBe(200)

    const server = await waitFor("the server span", () => named("POST /api/v1/initiate-payment")[0])
    expect(server.kind).toBe(1) // SERVER
    expect(server.spanContext().traceId).toBe(CALLER_TRACE_ID)
    expect(parentOf(server)).toBe(CALLER_SPAN_ID)
    expect(server.attributes).toEqual({
      "http.request.method": "POST",
      "http.route": "/api/v1/initiate-payment",
      "http.response.status_code": 200
    })

    const useCase = childrenOf(server).find((span) => span.name === "initiatePayment")
    expect(useCase, childrenOf(server).map((span) => span.name).join(", ")).toBeDefined()
    const statements = descendantsOf(useCase!).filter((span) => span.name === "sql.execute")
    expect(statements.length).toBeGreaterThan(0)
    expect(statements.every((span) => typeof span.attributes["db.query.text"] === "string")).toBe(true)
    // The signature check reads the merchant's credentials before the use case: SQL of the request too.
    expect(descendantsOf(server).filter((span) => span.name === "sql.execute").length).toBeGreaterThan(statements.length)
    expect(new Set(descendantsOf(server).map((span) => span.spanContext().traceId))).toEqual(new Set([CALLER_TRACE_ID]))
    // The platform's own server span (full URL, headers) is never made beside the kit's.
    expect(spans().filter((span) => span.name.startsWith("http.server"))).toEqual([])
  })

  it("traces no health probe", async () => {
    exporter.reset()
    expect((await fetch(`${origin}/healthz`)).status).toBe(200)
    expect((await fetch(`${origin}/readyz`)).status).toBe(200)
    expect((await signedCall(origin, credentials, "GET", "/api/v1/site-info")).status).toBe(200)
    await waitFor("the site-info span", () => named("GET /api/v1/site-info")[0])
    // Background jobs' statements may start traces of their own meanwhile: only requests are compared.
    expect(spans().filter((span) => span.kind === 1).map((span) => span.name)).toEqual(["GET /api/v1/site-info"])
  })

  it("never records a signature, a key, a token, a query or a raw path", async () => {
    exporter.reset()
    const initiated = await signedCall(origin, credentials, "POST", "/api/v1/initiate-payment", initiateBody("traced-2", `${receiver.url}/ipn`))
    const paymentUrl = String(initiated.json["payment_url"])
    const token = new URL(paymentUrl).pathname.split("/")[2]!
    await (await fetch(`${paymentUrl}?locale=fr`)).text()
    const page = await waitFor("the checkout page span", () => named("GET /checkout/*")[0])
    expect(page.attributes["http.route"]).toBe("/checkout/*")
    expect(childrenOf(page).map((span) => span.name)).toContain("showCheckout")

    const recorded = JSON.stringify(spans().map((span) => [span.name, span.attributes, span.events, span.status]))
    for (const secret of [credentials.client_secret, credentials.api_key, credentials.merchant_key, token, "locale", "12.50"]) {
      expect(recorded).not.toContain(secret)
    }
  })

  it("gives each plugin call a span, and each webhook attempt one whose traceparent the receiver gets", async () => {
    const initiated = await signedCall(origin, credentials, "POST", "/api/v1/initiate-payment", initiateBody("traced-3", `${receiver.url}/ipn`))
    const paymentUrl = String(initiated.json["payment_url"])
    exporter.reset()
    const page = await (await fetch(paymentUrl)).text()
    const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)![1]!
    const gatewayPage = await (await fetch(`${paymentUrl}/pay`, form({ gateway_id: gatewayId }))).text()
    const pay = pressButton(gatewayPage, "pay")!
    expect((await fetch(pay.action!, form(pay.fields))).status).toBe(303)

    const begin = await waitFor("the beginCheckout span", () => named("plugin beginCheckout")[0])
    expect(begin.kind).toBe(2) // CLIENT
    expect(begin.attributes).toMatchObject({ "plugin.id": "sandbox", "plugin.call": "beginCheckout" })
    const useCase = spans().find((span) => span.spanContext().spanId === parentOf(begin))
    expect(useCase?.name).toBe("payCheckout")
    expect(spans().find((span) => span.spanContext().spanId === parentOf(useCase!))?.name).toBe("POST /checkout/*")

    const delivered = await waitFor("a delivery", () => receiver.deliveries.find((headers) => headers["x-event-id"] !== undefined))
    const attempt = await waitFor("the attempt span", () => named("webhook attempt")[0])
    expect(delivered["traceparent"]).toBe(`00-${attempt.spanContext().traceId}-${attempt.spanContext().spanId}-01`)
    expect(attempt.attributes).toMatchObject({ "webhook.attempt": 1, "http.response.status_code": 200 })
    expect(parentOf(attempt)).toBeUndefined()
  })
})
