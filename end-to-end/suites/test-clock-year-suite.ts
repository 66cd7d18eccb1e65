import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { type LoopbackReceiver, startReceiver } from "../../adapters/webhook-http/testing/loopback-receiver.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"

const until = async (condition: () => boolean, timeoutMs = 20_000) => {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

type Json = Record<string, any>

// The deployment stands still before any of the clock's times: whatever the clock's objects do,
// only an advance moves them, and their deliveries must go out on this time, not theirs.
const DEPLOYMENT_NOW = Date.UTC(2027, 11, 15, 12, 0, 0)
const CLOCK_START = "2028-01-30T00:00:00Z"
const ANCHOR = "2028-01-31T09:30:00Z"
// Each advance lands on the anchor day at noon: the tick still runs at 09:30, when the period is due.
const ADVANCES = [
  "2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31", "2028-06-30",
  "2028-07-31", "2028-08-31", "2028-09-30", "2028-10-31", "2028-11-30", "2028-12-31"
]

/**
 * Issue 36's must-show for test clocks, through the kit's own HTTP edge: a monthly subscription on a
 * clock, anchored on 31 January, is driven by twelve advances of its clock (each invoice paid through
 * the sandbox checkout between them): exactly twelve invoices, on the anchor-preserving dates, at
 * the due instant; a second fresh clock gives the same event log. Another merchant cannot see the
 * clock; a real-time subscription and the deployment's clock are untouched; the clock's webhooks are
 * delivered now, on the deployment's time.
 */
export const testClockYearSuite = (name: string, store: () => StoreConfig) =>
  describe(`test clocks, a year of a monthly subscription: ${name}`, () => {
    const manual = makeManualClock(DEPLOYMENT_NOW)
    let receiver: LoopbackReceiver
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let caller: TestCaller
    let stranger: TestCaller
    let production: TestCaller

    beforeAll(async () => {
      receiver = await startReceiver()
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        backgroundJobs: true,
        manualClock: manual,
        scheduler: { enabled: false, batchSize: 100 },
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
        webhooks: { timeoutMs: 30_000, retryDelaysMillis: [500], allowPrivateTargets: true, pollIntervalMillis: 25 }
      })))
      const merchantOf = (label: string) =>
        runtime.runPromise(Effect.gen(function*() {
          const merchant = yield* createMerchant({ name: `${label} shop`, status: "approved" })
          yield* replaceCurrencies(merchant.id, ["USD"])
          yield* createWallet(merchant.id, "USD", "sandbox")
          yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `clock${merchant.id}`, type: "automatic", active: true })
          const sandbox = yield* issueCredentials(merchant.id, "sandbox")
          const live = yield* issueCredentials(merchant.id, "production")
          return [
            { environment: "sandbox" as const, merchantKey: sandbox.merchantKey, apiKey: sandbox.apiKey, clientSecret: sandbox.clientSecret },
            { environment: "production" as const, merchantKey: live.merchantKey, apiKey: live.apiKey, clientSecret: live.clientSecret }
          ] as const
        }) as Effect.Effect<readonly [TestCaller, TestCaller]>)
      ;[caller, production] = await merchantOf("Clock")
      ;[stranger] = await merchantOf("Other")
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
    })
    afterAll(async () => {
      await runtime.dispose()
      await receiver.close()
    })

    let keys = 0
    // POSTs carry an Idempotency-Key, as the kit's own client sends on every one.
    const callAs = async (who: TestCaller, method: string, path: string, body: unknown = undefined) => {
      const headers: Record<string, string> = method === "POST" ? { "idempotency-key": `key-${++keys}` } : {}
      const response = await handler(signedRequest(who, method, path, body === undefined ? "" : JSON.stringify(body), headers))
      return { status: response.status, json: (await response.json()) as Json }
    }
    const call = (method: string, path: string, body: unknown = undefined) => callAs(caller, method, path, body)
    const pay = async (trxId: string) => {
      const paid = await call("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect(paid.status).toBe(200)
      expect(paid.json["status"]).toBe("success")
    }
    const subscribe = (reference: string, extra: Json) =>
      call("POST", "/api/v1/subscriptions", {
        external_reference: reference,
        billing_cycle: "monthly",
        payment_amount: "19.99",
        currency_code: "USD",
        customer_email: "payer@example.com",
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: receiver.url(`/ipn/${reference}`),
        ...extra
      })

    /** Deliveries to one subscription's ipn_url, one per event id (deliveries are at least once). */
    const eventsAt = (reference: string) => [
      ...new Map(receiver.received.filter((r) => r.path === `/ipn/${reference}`)
        .map((r) => [String(r.headers["x-event-id"]), { request: r, body: JSON.parse(r.body.toString("utf8")) as Json }])).values()
    ]

    /** A year on a fresh clock: twelve advances, each invoice paid between them. Answers the event log. */
    const runYear = async (reference: string) => {
      const clock = await call("POST", "/api/v1/test-clocks", { frozen_time: CLOCK_START, name: `year ${reference}` })
      expect(clock.status).toBe(201)
      expect(clock.json["data"]).toMatchObject({ status: "ready", frozen_time: "2028-01-30T00:00:00.000000Z", name: `year ${reference}` })
      const clockId = clock.json["data"]["id"] as string

      const created = await subscribe(reference, { test_clock: clockId, starts_at: ANCHOR })
      expect(created.status).toBe(201)
      // Company on the clock, due at the same instant: one tick carries several at once.
      for (const n of [1, 2, 3]) expect((await subscribe(`${reference}-company-${n}`, { test_clock: clockId, starts_at: ANCHOR })).status).toBe(201)
      const id = created.json["data"]["id"] as string
      // Created at the clock's time, not the deployment's, and shown on it.
      expect(created.json["data"]).toMatchObject({ status: "pending", test_clock: clockId, created_at: "2028-01-30T00:00:00.000000Z", latest_invoice: null })

      for (const [index, day] of ADVANCES.entries()) {
        const advanced = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: `${day}T12:00:00Z` })
        expect(advanced.status).toBe(200)
        expect(advanced.json["data"]).toMatchObject({ id: clockId, status: "ready", frozen_time: `${day}T12:00:00.000000Z` })
        const due = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
        expect(due["status"]).toBe(index === 0 ? "pending" : "past_due")
        const invoice = due["latest_invoice"] as Json
        // The invoice of the period that began at the anchor's time that day, opened at that instant.
        expect(invoice).toMatchObject({ sequence: index + 1, status: "pending", period_start: `${day}T09:30:00.000000Z`, created_at: `${day}T09:30:00.000000Z` })
        await pay(invoice["trx_id"])
        const paid = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
        expect(paid).toMatchObject({ status: "active", current_period_start: invoice["period_start"], current_period_end: invoice["period_end"] })
        // Paid at the clock's time: the payment came now, on the deployment's time, but the subscription lives on its clock.
        expect(paid["latest_invoice"]).toMatchObject({ sequence: index + 1, status: "paid", paid_at: `${day}T12:00:00.000000Z` })
      }

      const retrieved = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
      const invoices = (retrieved["invoices"] as Array<Json>).slice().reverse()
      expect(invoices).toHaveLength(12)
      expect(invoices.map((invoice) => String(invoice["period_start"]).slice(0, 10))).toEqual(ADVANCES)
      expect(invoices.map((invoice) => String(invoice["period_end"]).slice(0, 10))).toEqual([...ADVANCES.slice(1), "2029-01-31"])
      expect(invoices.every((invoice) => invoice["status"] === "paid")).toBe(true)
      expect(retrieved).toMatchObject({ status: "active", next_billing_at: "2029-01-31T09:30:00.000000Z" })

      // The event log in the subscription's own order (its events' sequence), without ids.
      const page = await call("GET", `/api/v1/events?object_id=${id}&limit=100`)
      expect(page.status).toBe(200)
      const logged = (page.json["data"] as Array<Json>).slice().sort((a, b) => a["sequence"] - b["sequence"])
      await until(() => eventsAt(reference).filter((e) => e.body["event"] !== "payment.completed").length >= logged.length)
      const bodies = new Map(eventsAt(reference).map((e) => [String(e.request.headers["x-event-id"]), e]))
      const log = logged.map((event) => {
        const delivered = bodies.get(event["id"])!
        const data = delivered.body["data"] as Json
        const invoice = (data["invoice"] ?? data["latest_invoice"]) as Json | null
        return `${event["type"]} ${invoice === null ? "-" : `${invoice["period_start"]}..${invoice["period_end"]}`}`
      })
      return { clockId, id, log, deliveries: eventsAt(reference) }
    }

    it("twelve advances from 31 January: twelve invoices on the anchor's dates, the same log on a fresh clock, nothing else moved", async () => {
      // A real-time subscription starting soon on the deployment's time: no advance may start it.
      const realTime = await subscribe("real-time", { starts_at: "2027-12-20T00:00:00Z" })
      expect(realTime.status).toBe(201)
      expect(realTime.json["data"]).not.toHaveProperty("test_clock")

      const first = await runYear("clock-a")
      expect(first.log.filter((line) => line.startsWith("invoice.created"))).toHaveLength(12)
      expect(first.log.slice(0, 7)).toEqual([
        "invoice.created 2028-01-31T09:30:00.000000Z..2028-02-29T09:30:00.000000Z",
        "subscription.activated 2028-01-31T09:30:00.000000Z..2028-02-29T09:30:00.000000Z",
        "invoice.paid 2028-01-31T09:30:00.000000Z..2028-02-29T09:30:00.000000Z",
        "subscription.past_due 2028-02-29T09:30:00.000000Z..2028-03-31T09:30:00.000000Z",
        "invoice.created 2028-02-29T09:30:00.000000Z..2028-03-31T09:30:00.000000Z",
        "subscription.renewed 2028-02-29T09:30:00.000000Z..2028-03-31T09:30:00.000000Z",
        "invoice.paid 2028-02-29T09:30:00.000000Z..2028-03-31T09:30:00.000000Z"
      ])
      expect(first.log.filter((line) => line.startsWith("invoice.paid"))).toHaveLength(12)
      expect(first.log.filter((line) => line.startsWith("subscription.renewed"))).toHaveLength(11)
      expect(first.log.filter((line) => line.startsWith("subscription.past_due"))).toHaveLength(11)
      const second = await runYear("clock-b")
      expect(second.clockId).not.toBe(first.clockId)
      expect(second.log).toEqual(first.log)

      // Delivered now, on the deployment's time (which never moved), not a year ahead.
      expect(Number(manual.unsafeNow() / 1000n)).toBe(DEPLOYMENT_NOW)
      for (const { request } of first.deliveries) {
        expect(Number(request.headers["webhook-timestamp"]) * 1000).toBeLessThan(Date.parse("2028-01-01T00:00:00Z"))
      }

      // The real-time subscription did not start: its start is on real time, which stood still.
      const untouched = await call("GET", `/api/v1/subscriptions/${realTime.json["data"]["id"]}`)
      expect(untouched.json["data"]).toMatchObject({ status: "pending", latest_invoice: null, updated_at: realTime.json["data"]["updated_at"] })
      // Nor does real time's scheduler see the clock's subscriptions.
      const tick = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      expect(((await tick.json()) as Json)["data"]).toMatchObject({ processed: 0 })

      // Listed, and another merchant's clock is not found, nor usable for its subscriptions.
      const listed = await call("GET", "/api/v1/test-clocks")
      // (Both were created at the same instant of the standing deployment clock: the order between them is the id's.)
      expect((listed.json["data"] as Array<Json>).map((clock) => clock["id"]).sort()).toEqual([second.clockId, first.clockId].sort())
      expect((await callAs(stranger, "GET", `/api/v1/test-clocks/${first.clockId}`)).status).toBe(404)
      expect((await callAs(stranger, "POST", `/api/v1/test-clocks/${first.clockId}/advance`, { frozen_time: "2029-06-01T00:00:00Z" })).status).toBe(404)
      expect((await callAs(stranger, "DELETE", `/api/v1/test-clocks/${first.clockId}`)).status).toBe(404)
      expect((await callAs(stranger, "GET", "/api/v1/test-clocks")).json["data"]).toEqual([])
      const borrowed = await callAs(stranger, "POST", "/api/v1/subscriptions", {
        external_reference: "borrowed", billing_cycle: "monthly", payment_amount: "5.00", currency_code: "USD", customer_email: "x@example.com",
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: receiver.url("/ipn/borrowed"),
        test_clock: first.clockId
      })
      expect(borrowed.status).toBe(422)
      expect(borrowed.json["errors"]).toHaveProperty("test_clock")

      // Production has no test clocks.
      const live = await callAs(production, "POST", "/api/v1/test-clocks", { frozen_time: CLOCK_START })
      expect(live.status).toBe(422)
      expect(live.json["message"]).toBe("Test clocks are sandbox only.")

      // An advance must move forward, within the horizon.
      const backwards = await call("POST", `/api/v1/test-clocks/${first.clockId}/advance`, { frozen_time: "2028-06-01T00:00:00Z" })
      expect(backwards.status).toBe(422)
      expect(backwards.json["errors"]).toHaveProperty("frozen_time")
      expect((await call("POST", `/api/v1/test-clocks/${first.clockId}/advance`, { frozen_time: "2040-01-01T00:00:00Z" })).status).toBe(422)

      // Deleting a clock deletes its objects; the payments made stay in the payment history.
      const paidTrx = (await call("GET", `/api/v1/subscriptions/${first.id}`)).json["data"]["latest_invoice"]["trx_id"] as string
      const deleted = await call("DELETE", `/api/v1/test-clocks/${first.clockId}`)
      expect(deleted).toMatchObject({ status: 200, json: { data: { id: first.clockId, deleted: true } } })
      expect((await call("GET", `/api/v1/test-clocks/${first.clockId}`)).status).toBe(404)
      expect((await call("GET", `/api/v1/subscriptions/${first.id}`)).status).toBe(404)
      const payment = await call("GET", `/api/v1/verify-payment/${paidTrx}`)
      expect(payment.status).toBe(200)
      expect(payment.json["status"]).toBe("success")
      // The other clock and its subscription are as they were.
      expect((await call("GET", `/api/v1/subscriptions/${second.id}`)).json["data"]).toMatchObject({ status: "active", test_clock: second.clockId })
    })
  })
