import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { type LoopbackReceiver, type ReceivedRequest, startReceiver } from "../../adapters/webhook-http/testing/loopback-receiver.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { verifyWebhook } from "../../core/webhooks/verify-webhook.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"

const until = async (condition: () => boolean, timeoutMs = 15_000) => {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting")
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

type Json = Record<string, any>

/**
 * The issue's must-show: a monthly subscription started on Jan 31 (a leap year), driven by the
 * manual clock through the kit's own HTTP edge and paid each period through the sandbox simulate
 * endpoint: twelve paid invoices whose periods end on the last day of each short month and on the
 * 31st otherwise, and, at the subscription's ipn_url, one invoice.created and one payment.completed
 * per period (counted by event id: deliveries are at least once), each signed with the environment's
 * webhook secret.
 */
export const subscriptionYearSuite = (name: string, store: () => StoreConfig) =>
  describe(`a year of a monthly subscription: ${name}`, () => {
    const manual = makeManualClock(Date.UTC(2028, 0, 31, 9, 30, 0))
    let receiver: LoopbackReceiver
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let caller: TestCaller & { readonly webhookSecret: string }

    beforeAll(async () => {
      receiver = await startReceiver()
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        backgroundJobs: true,
        manualClock: manual,
        scheduler: { enabled: false, batchSize: 100 },
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
        // The receiver answers at once, but on a loaded machine this process can stall for seconds
        // and an attempt's timer then fires before its answer is read: a failed attempt, retried. A
        // long timeout keeps retries rare; the counts below are by event id, so one is still harmless.
        webhooks: { timeoutMs: 30_000, retryDelaysMillis: [500], allowPrivateTargets: true, pollIntervalMillis: 25 }
      })))
      caller = await runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Year shop", status: "approved" })
        yield* replaceCurrencies(merchant.id, ["USD"])
        yield* createWallet(merchant.id, "USD", "sandbox")
        yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `year${merchant.id}`, type: "automatic", active: true })
        const issued = yield* issueCredentials(merchant.id, "sandbox")
        return { environment: "sandbox" as const, merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret, webhookSecret: issued.webhookSecret }
      }) as Effect.Effect<TestCaller & { readonly webhookSecret: string }>)
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
    })
    afterAll(async () => {
      await runtime.dispose()
      await receiver.close()
    })

    const call = async (method: string, path: string, body: unknown = undefined) => {
      const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
      return { status: response.status, json: (await response.json()) as Json }
    }
    const admin = async (path: string) => {
      const response = await handler(new Request(`http://kit.test/admin/v1${path}`, { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      return { status: response.status, json: (await response.json()) as Json }
    }
    const pay = async (trxId: string) => {
      const paid = await call("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect(paid.status).toBe(200)
      expect(paid.json["status"]).toBe("success")
    }
    const advanceTo = (isoInstant: string) =>
      runtime.runPromise(manual.advance(Math.ceil((Date.parse(isoInstant) - Number(manual.unsafeNow() / 1000n)) / 1000) + 1))

    it("twelve paid invoices, anchor-day periods, one invoice.created and one completed IPN per period", async () => {
      const created = await call("POST", "/api/v1/subscriptions", {
        external_reference: "year-1",
        billing_cycle: "monthly",
        payment_amount: "19.99",
        currency_code: "USD",
        customer_email: "payer@example.com",
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: receiver.url("/ipn")
      })
      expect(created.status).toBe(201)
      const id = created.json["data"]["id"] as string
      expect(created.json["data"]).toMatchObject({ status: "pending", amount: "19.99000000", latest_invoice: { sequence: 1, status: "pending" } })

      const references: Array<string> = []
      let latest = created.json["data"]["latest_invoice"] as Json
      for (let period = 1; period <= 12; period++) {
        expect(latest).toMatchObject({ sequence: period, status: "pending" })
        references.push(latest["reference"])
        await pay(latest["trx_id"])
        const paid = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
        expect(paid).toMatchObject({ status: "active", current_period_end: latest["period_end"], next_billing_at: latest["period_end"] })
        expect(paid["latest_invoice"]).toMatchObject({ sequence: period, status: "paid" })
        if (period === 12) break
        await advanceTo(paid["current_period_end"])
        const tick = await admin("/scheduler/run")
        expect(tick).toMatchObject({ status: 200, json: { data: { past_due: 1 } } })
        const due = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
        expect(due["status"]).toBe("past_due")
        latest = due["latest_invoice"]
        expect(latest["period_start"]).toBe(paid["current_period_end"])
      }

      const retrieved = (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
      const invoices = retrieved["invoices"] as Array<Json>
      expect(invoices.map((invoice) => invoice["status"])).toEqual(Array(12).fill("paid"))
      expect(invoices.map((invoice) => String(invoice["period_end"]).slice(0, 10)).reverse()).toEqual([
        "2028-02-29", "2028-03-31", "2028-04-30", "2028-05-31", "2028-06-30", "2028-07-31",
        "2028-08-31", "2028-09-30", "2028-10-31", "2028-11-30", "2028-12-31", "2029-01-31"
      ])
      // The anchor's time of day is kept through every period.
      expect(invoices.every((invoice) => String(invoice["period_end"]).slice(10) === "T09:30:00.000000Z")).toBe(true)

      const deliveries = () =>
        receiver.received.filter((r) => r.path === "/ipn").map((r) => ({ request: r, body: JSON.parse(r.body.toString("utf8")) as Json }))
      // Deliveries are at least once: a retried attempt reaches the receiver again under the same
      // event id, as the contract tells receivers to expect. Events are counted by that id.
      const eventId = (request: ReceivedRequest) => String(request.headers["x-event-id"])
      const events = () => [...new Map(deliveries().map((delivery) => [eventId(delivery.request), delivery])).values()]
      const count = (event: string) => events().filter((e) => e.body["event"] === event).length
      const expected = { "payment.completed": 12, "invoice.created": 12, "invoice.paid": 12, "subscription.activated": 1, "subscription.renewed": 11, "subscription.past_due": 11 }
      // Deliveries leave in batches: wait for every kind before counting exactly.
      await until(() => Object.entries(expected).every(([event, n]) => count(event) >= n))
      // One event per period: a period with two different events would show its reference twice.
      const completed = events().filter((e) => e.body["event"] === "payment.completed")
      const invoiceCreated = events().filter((e) => e.body["event"] === "invoice.created")
      expect(completed.map((e) => e.body["data"]["ref_trx"]).sort()).toEqual([...references].sort())
      expect(invoiceCreated.map((e) => e.body["data"]["invoice"]["reference"]).sort()).toEqual([...references].sort())
      expect(invoiceCreated.every((e) => typeof e.body["data"]["invoice"]["payment_url"] === "string")).toBe(true)
      // A delivery seen again is the same event: its stored bytes, under the same Standard Webhooks id.
      const first = new Map(events().map((e) => [eventId(e.request), e.request]))
      for (const { request } of deliveries()) {
        expect(request.headers["webhook-id"]).toBe(eventId(request))
        expect(request.body.equals(first.get(eventId(request))!.body), eventId(request)).toBe(true)
      }
      for (const { body, request } of deliveries()) {
        const check = verifyWebhook({
          webhookSecret: caller.webhookSecret,
          clientSecret: caller.clientSecret,
          rawBody: request.body,
          signature: request.headers["x-signature"] as string,
          environmentHeader: request.headers["x-environment"] as string,
          expectedEnvironment: "sandbox"
        })
        expect(check).toEqual({ valid: true, kind: String(body["event"]).startsWith("payment.") ? "payment" : "subscription" })
      }
      // Exactly once each by event id: no event enqueued twice, no other event.
      expect(Object.fromEntries(Object.keys(expected).map((event) => [event, count(event)]))).toEqual(expected)
      expect(events().length).toBe(Object.values(expected).reduce((a, b) => a + b, 0))
    })
  })
