import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { pressButton } from "../../conformance/gateway/html-forms.js"
import { parseSamples, type Sample, typeOf, valueOf } from "../../adapters/metrics/testing/prometheus-samples.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { currentReceiverUrl, received, resetReceiver, ROOT, startHost, waitFor, withHostReports, type Host } from "../../testing/hosts/child-hosts.js"
import { merchantCall } from "../../testing/hosts/demo-fixtures.js"
import { adminCall, onboardMerchant } from "../../testing/hosts/shared-store-fixtures.js"

const ADMIN_TOKEN = "metrics-admin-token"
const MASTER_KEY = "ab".repeat(32)

const scrape = async (host: Host, headers: Record<string, string> = { authorization: `Bearer ${ADMIN_TOKEN}` }) => {
  const response = await fetch(`${host.url}/metrics`, { headers, signal: AbortSignal.timeout(10_000) })
  return { status: response.status, contentType: response.headers.get("content-type"), text: await response.text() }
}

const samplesOf = async (host: Host) => {
  const scraped = await scrape(host)
  expect(scraped.status, scraped.text).toBe(200)
  return { text: scraped.text, samples: parseSamples(scraped.text) }
}

/** The customer's path on hosted checkout: choose the sandbox gateway, then press Pay on its form. */
const payOnCheckout = async (paymentUrl: string) => {
  const page = await fetch(paymentUrl).then((response) => response.text())
  const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)?.[1]
  expect(gatewayId, page).toBeDefined()
  const chosen = await fetch(`${paymentUrl}/pay`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `gateway_id=${gatewayId}`,
    redirect: "manual"
  })
  const form = await chosen.text()
  const pay = pressButton(form, "pay")
  expect(pay?.action, form).toBeDefined()
  const returned = await fetch(pay!.action!, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(pay!.fields).toString(),
    redirect: "manual"
  })
  expect(returned.status, await returned.text()).toBe(303)
}

describe("metrics of the built host", () => {
  const scratch = childHostSuite("mp-metrics-")

  it("GET /metrics: each counter moves by exactly what a payment, a refund and a failed webhook did", async () => {
    let host: Host | undefined
    await withHostReports(() => [["metrics", host]], async () => {
      host = await startHost(scratch(), {
        MASTER_KEY, ADMIN_TOKEN, DEMO: "false", LOG_LEVEL: "error",
        // One attempt per event, looked for often: a refused delivery fails at once.
        WEBHOOK_RETRY_DELAYS_MS: "", WEBHOOK_POLL_INTERVAL_MS: "50", SCHEDULER: "off"
      })
      const shop = await onboardMerchant(host, ADMIN_TOKEN, "Metrics shop", { fee_percent: "0", fee_fixed: "0" })
      const gateway = await adminCall(host, ADMIN_TOKEN, "POST", "/gateways", { plugin: "sandbox", name: "Sandbox card", currency_code: "USD", method: "sandbox" })
      expect(gateway.status, gateway.text).toBe(201)

      // Behind the admin token by default, in the Prometheus text format.
      expect((await scrape(host, {})).status).toBe(401)
      const first = await scrape(host)
      expect([first.status, first.contentType]).toEqual([200, "text/plain; version=0.0.4; charset=utf-8"])
      const before = parseSamples(first.text)

      resetReceiver([500, 500])
      const initiated = await merchantCall(host, shop, "POST", "/api/v1/initiate-payment", {
        payment_amount: "40.00", currency_code: "USD", ref_trx: "metrics-1",
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${currentReceiverUrl()}/ipn`
      })
      expect(initiated.status, initiated.text).toBe(200)
      const trxId = String(initiated.json.info.trx_id)
      await payOnCheckout(String(initiated.json.payment_url))
      const verified = await merchantCall(host, shop, "GET", `/api/v1/verify-payment/${trxId}`)
      expect([verified.status, verified.json.status]).toEqual([200, "success"])
      const refund = { trx_id: trxId, amount: "15.00", ref_refund: "metrics-refund-1" }
      expect((await merchantCall(host, shop, "POST", "/api/v1/refund-payment", refund)).status).toBe(200)
      // The same ref_refund again answers the first refund: no second one is counted.
      expect((await merchantCall(host, shop, "POST", "/api/v1/refund-payment", refund)).status).toBe(200)
      expect((await adminCall(host, ADMIN_TOKEN, "POST", "/scheduler/run")).status).toBe(200)
      // Both events (the completion's IPN and the refund's) were refused once, and given up.
      await waitFor("both webhook events to be refused", 15_000, () => (received.length === 2 ? true : undefined))
      const after = await waitFor("the failed attempts to be recorded", 15_000, async () => {
        const { samples, text } = await samplesOf(host!)
        return valueOf(samples, "merchant_payments_webhook_attempts_total", { outcome: "failed" }) -
              valueOf(before, "merchant_payments_webhook_attempts_total", { outcome: "failed" }) === 2 &&
            valueOf(samples, "merchant_payments_webhook_queue_depth") === 0
          ? { samples, text }
          : undefined
      })
      const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after.samples, name, labels) - valueOf(before, name, labels)

      expect(moved("merchant_payments_payments_total", { environment: "sandbox", status: "success" })).toBe(1)
      expect(moved("merchant_payments_payments_total", { environment: "sandbox", status: "failed" })).toBe(0)
      expect(moved("merchant_payments_refunds_total", { environment: "sandbox" })).toBe(1)
      expect(moved("merchant_payments_webhook_attempts_total", { outcome: "failed" })).toBe(2)
      expect(moved("merchant_payments_webhook_attempts_total", { outcome: "delivered" })).toBe(0)
      expect(valueOf(after.samples, "merchant_payments_webhook_queue_depth")).toBe(0)
      // Both attempts went out in the fast lane: a receiver answering 500 at once is not slow.
      expect(moved("merchant_payments_webhook_delivery_delay_seconds_count", { lane: "fast" })).toBe(2)
      expect(moved("merchant_payments_webhook_delivery_delay_seconds_count", { lane: "slow" })).toBe(0)
      expect(valueOf(after.samples, "merchant_payments_webhook_in_flight", { lane: "fast" })).toBe(0)
      expect(moved("merchant_payments_scheduler_ticks_total")).toBe(1)
      expect(valueOf(after.samples, "merchant_payments_scheduler_lag_seconds")).toBe(0)
      expect(moved("merchant_payments_gateway_calls_total", { plugin: "sandbox", operation: "beginCheckout", outcome: "ok" })).toBe(1)
      expect(moved("merchant_payments_gateway_calls_total", { plugin: "sandbox", operation: "handleReturn", outcome: "ok" })).toBe(1)
      const requests = (route: string, method: string, status: string) => moved("merchant_payments_http_requests_total", { route, method, status })
      expect(requests("/api/v1/initiate-payment", "POST", "200")).toBe(1)
      expect(requests("/api/v1/verify-payment/:trxId", "GET", "200")).toBe(1)
      expect(requests("/api/v1/refund-payment", "POST", "200")).toBe(2)
      expect(requests("/checkout/*", "GET", "200")).toBe(1)
      expect(moved("merchant_payments_http_request_duration_seconds_count", { route: "/api/v1/initiate-payment", method: "POST" })).toBe(1)
      expect(typeOf(after.text, "merchant_payments_http_request_duration_seconds")).toBe("histogram")
      expect(typeOf(after.text, "merchant_payments_payments_total")).toBe("counter")
      expect(typeOf(after.text, "merchant_payments_webhook_queue_depth")).toBe("gauge")

      // The process figures, sampled at the scrape.
      expect(valueOf(after.samples, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000)
      expect(valueOf(after.samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0)
      expect(after.samples.some((sample) => sample.name === "nodejs_eventloop_lag_p99_seconds")).toBe(true)

      // Labels are bounded words: no path with an id in it, no merchant, key or amount.
      const labelValues = after.samples.flatMap((sample: Sample) => Object.values(sample.labels))
      for (const secretish of [trxId, shop.merchant_key, shop.api_key, "40.00", "15.00", "metrics-1"]) {
        expect(labelValues.some((value) => value.includes(secretish)), secretish).toBe(false)
      }
      const labelNames = new Set(after.samples.flatMap((sample: Sample) => Object.keys(sample.labels)))
      expect([...labelNames].sort()).toEqual(["environment", "lane", "le", "method", "operation", "outcome", "plugin", "route", "status"])
      expect(after.text).not.toContain(trxId)

      // Every metric the operations doc lists and the dashboard charts is one this host serves.
      const named = (file: string) =>
        new Set([...readFileSync(join(ROOT, "docs", file), "utf8").matchAll(/\b(?:merchant_payments|process|nodejs)_[a-z0-9_]+/g)]
          .map(([name]) => name.replace(/_(bucket|count|sum)$/, "")))
      for (const file of ["operations.md", "grafana-dashboard.json"]) {
        const missing = [...named(file)].filter((name) => typeOf(after.text, name) === undefined)
        expect(missing, `${file} names metrics the host does not serve`).toEqual([])
      }
    })
  }, 120_000)

  it("METRICS_PUBLIC=true serves /metrics without the token; a path no route takes is one series", async () => {
    let host: Host | undefined
    await withHostReports(() => [["public", host]], async () => {
      host = await startHost(`${scratch()}/public`, { MASTER_KEY, ADMIN_TOKEN, DEMO: "false", LOG_LEVEL: "error", METRICS_PUBLIC: "true" })
      for (const path of ["/no/such/path/1", "/no/such/path/2"]) expect((await fetch(`${host.url}${path}`)).status).toBe(404)
      const open = await scrape(host, {})
      expect(open.status).toBe(200)
      const samples = parseSamples(open.text)
      expect(valueOf(samples, "merchant_payments_http_requests_total", { route: "unmatched", method: "GET", status: "404" })).toBe(2)
      expect(open.text).not.toContain("/no/such/path")
    })
  }, 60_000)
})
