import { HttpApp } from "@effect/platform"
import { Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { TRIGGERABLE_EVENTS } from "../../core/triggers/trigger-catalog.js"
import { KEPT_TRIGGER_CLOCKS } from "../../core/triggers/subscription-triggers.js"
import { issueCredentials } from "../../core/merchants/merchant-admin.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import type { TestCaller } from "../../testing/http/signed-client.js"
import { bankAccount, kitCalls } from "./payout-suite.js"
import { sandboxShop } from "./sandbox-shop.js"
import { testKitConfig } from "./test-kit-config.js"

type Json = Record<string, any>

/** A public literal address: accepted as a webhook target without a DNS lookup; nothing is sent here (no background jobs). */
const HOOKS = "https://93.184.216.34/hooks"

/** Where each triggered event leaves its object, read back through the API the merchant reads it with. */
const STATE: Record<(typeof TRIGGERABLE_EVENTS)[number], { readonly object: string; readonly path: (id: string) => string; readonly expect: Json }> = {
  "payment.completed": { object: "payment", path: (id) => `/api/v1/verify-payment/${id}`, expect: { status: "success" } },
  "payment.failed": { object: "payment", path: (id) => `/api/v1/verify-payment/${id}`, expect: { status: "failed" } },
  // Verify tells a cancelled or expired checkout as failed; the event names which.
  "payment.cancelled": { object: "payment", path: (id) => `/api/v1/verify-payment/${id}`, expect: { status: "failed" } },
  "payment.expired": { object: "payment", path: (id) => `/api/v1/verify-payment/${id}`, expect: { status: "failed" } },
  "payment.refunded": { object: "payment", path: (id) => `/api/v1/verify-payment/${id}`, expect: { status: "success", refunded_amount: 1 } },
  "invoice.created": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "pending", latest_invoice: { status: "pending" } } } },
  "invoice.paid": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active", latest_invoice: { status: "paid" } } } },
  "subscription.activated": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active" } } },
  "subscription.updated": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active", amount: "12.00000000" } } },
  "subscription.paused": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active", paused_at: expect.any(String) } } },
  "subscription.resumed": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active" } } },
  "subscription.cancelled": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "cancelled" } } },
  "subscription.past_due": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "past_due", latest_invoice: { sequence: 2, status: "pending" } } } },
  "subscription.renewed": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active", latest_invoice: { sequence: 2, status: "paid" } } } },
  "subscription.trial_will_end": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "active" } } },
  "invoice.reminder": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "past_due" } } },
  "invoice.uncollectible": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "cancelled" } } },
  // The renewal's charge of the saved test card was declined: past_due, the period's invoice open for the customer, a retry scheduled.
  "invoice.payment_failed": { object: "subscription", path: (id) => `/api/v1/subscriptions/${id}`, expect: { data: { status: "past_due", latest_invoice: { sequence: 2, status: "pending" } } } },
  "payout.created": { object: "payout", path: (id) => `/api/v1/payouts/${id}`, expect: { data: { status: "pending", amount: 1 } } },
  "payout.paid": { object: "payout", path: (id) => `/api/v1/payouts/${id}`, expect: { data: { status: "paid" } } },
  "payout.failed": { object: "payout", path: (id) => `/api/v1/payouts/${id}`, expect: { data: { status: "failed" } } },
  "dispute.created": { object: "dispute", path: (id) => `/api/v1/disputes/${id}`, expect: { data: { status: "needs_response" } } },
  "dispute.updated": { object: "dispute", path: (id) => `/api/v1/disputes/${id}`, expect: { data: { status: "under_review" } } },
  "dispute.closed": { object: "dispute", path: (id) => `/api/v1/disputes/${id}`, expect: { data: { status: "won" } } }
}

/**
 * Issue 37 through the whole HTTP app over a real store: every triggerable event is made to happen
 * (its event really queued, as the events API lists it, its objects in the state the event tells),
 * events that cannot be triggered honestly and production are refused, each with its reason.
 */
export const triggerSuite = (name: string, store: () => StoreConfig) =>
  describe(`sandbox triggers over HTTP: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let calls: ReturnType<typeof kitCalls>
    let caller: TestCaller
    let production: TestCaller

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 } })))
      calls = kitCalls(HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Error))))
      const shop = await runtime.runPromise(sandboxShop("Trigger shop", "trg"))
      caller = shop
      const live = await runtime.runPromise(issueCredentials(shop.merchantId, "production"))
      production = { environment: "production", merchantKey: live.merchantKey, apiKey: live.apiKey, clientSecret: live.clientSecret }
      // Every event reaches the merchant's endpoint: the triggered objects themselves carry no ipn_url.
      const hooks = await calls.merchant(caller, "POST", "/api/v1/webhook-endpoints", { url: HOOKS, events: ["*"] })
      expect(hooks.status, hooks.text).toBe(201)
      const destination = await calls.merchant(caller, "POST", "/api/v1/payout-destinations", bankAccount("USD"))
      expect(destination.status, destination.text).toBe(201)
    }, 60_000)
    afterAll(() => runtime?.dispose())

    const trigger = (body: Json, who: TestCaller = caller) => calls.merchant(who, "POST", "/api/v1/triggers", body)

    for (const event of TRIGGERABLE_EVENTS) {
      it(`${event}: made to happen, queued, its object in the state the event tells`, async () => {
        const answer = await trigger({ event })
        expect(answer.status, answer.text).toBe(200)
        const { data } = answer.body
        expect(data.event).toBe(event)
        const triggered = (data.events as ReadonlyArray<Json>).filter((each) => each.type === event)
        expect(triggered.length, answer.text).toBeGreaterThan(0)

        // The events API lists its delivery to the merchant's endpoint: it was queued by the flow, once per event.
        const objectIds = new Set((data.objects as ReadonlyArray<Json>).map((each) => each.id as string))
        const listed = await calls.merchant(caller, "GET", `/api/v1/events?type=${event}&limit=100`)
        expect(listed.status, listed.text).toBe(200)
        const queued = (listed.body.data as ReadonlyArray<Json>).filter((each) => objectIds.has(each.object_id))
        expect(queued.map((each) => each.url), listed.text).toEqual(triggered.map(() => HOOKS))

        const state = STATE[event]
        const object = (data.objects as ReadonlyArray<Json>).find((each) => each.type === state.object)
        expect(object, answer.text).toBeDefined()
        const read = await calls.merchant(caller, "GET", state.path(object!.id))
        expect(read.status, read.text).toBe(200)
        expect(read.body).toMatchObject(state.expect)
        if (event === "subscription.resumed") expect(read.body.data).not.toHaveProperty("paused_at")
      }, 60_000)
    }

    it("sends the triggered payment's events to an ipn_url given, under the usual rules", async () => {
      const answer = await trigger({ event: "payment.completed", ipn_url: "https://93.184.216.34/ipn" })
      expect(answer.status, answer.text).toBe(200)
      const trxId = answer.body.data.objects[0].id as string
      const events = await calls.merchant(caller, "GET", `/api/v1/events?object_id=${trxId}`)
      expect((events.body.data as ReadonlyArray<Json>).map((each) => each.url).sort()).toEqual([HOOKS, "https://93.184.216.34/ipn"])
      // The answer names the event once, by the id its ipn_url delivery carries.
      const ipnDelivery = (events.body.data as ReadonlyArray<Json>).find((each) => each.url === "https://93.184.216.34/ipn")!
      expect(answer.body.data.events).toEqual([{ id: ipnDelivery.id, type: "payment.completed" }])
      const refused = await trigger({ event: "payment.completed", ipn_url: "http://127.0.0.1/ipn" })
      expect(refused.status, refused.text).toBe(422)
      expect(Object.keys(refused.body.errors)).toEqual(["ipn_url"])
    })

    it("refuses an unknown event listing those it can trigger, and one it cannot trigger honestly saying why", async () => {
      const unknown = await trigger({ event: "payment.teleported" })
      expect(unknown.status, unknown.text).toBe(422)
      expect(unknown.body.errors.event[0]).toContain("payment.completed, payment.failed")
      expect(unknown.body.errors.event[0]).toContain("dispute.closed")
      const honest = await trigger({ event: "balance.available" })
      expect(honest.status, honest.text).toBe(422)
      expect(honest.body.errors.event[0]).toContain("payout delay")
      const before = await calls.merchant(caller, "GET", "/api/v1/events?type=balance.available")
      expect(before.body.data).toEqual([])
      expect((await trigger({})).status).toBe(422)
    })

    it("keeps only its own newest clocks, within a bound, and never deletes the merchant's own", async () => {
      const frozen_time = new Date().toISOString()
      const mine = await calls.merchant(caller, "POST", "/api/v1/test-clocks", { frozen_time, name: "Mine" })
      expect(mine.status, mine.text).toBe(201)
      const ownClocks = async () => ((await calls.merchant(caller, "GET", "/api/v1/test-clocks")).body.data as ReadonlyArray<Json>)
      // Clocks as earlier triggers left them, until the bound is reached.
      while ((await ownClocks()).filter((clock) => clock.name === "Triggered subscription").length < KEPT_TRIGGER_CLOCKS) {
        const made = await calls.merchant(caller, "POST", "/api/v1/test-clocks", { frozen_time, name: "Triggered subscription" })
        expect(made.status, made.text).toBe(201)
      }
      const oldest = (await ownClocks()).filter((clock) => clock.name === "Triggered subscription").at(-1)!
      const answer = await trigger({ event: "subscription.activated" })
      expect(answer.status, answer.text).toBe(200)
      const after = await ownClocks()
      const triggered = after.filter((clock) => clock.name === "Triggered subscription")
      expect(triggered).toHaveLength(KEPT_TRIGGER_CLOCKS)
      expect(triggered.map((clock) => clock.id)).toContain(answer.body.data.objects.find((object: Json) => object.type === "test_clock").id)
      expect(triggered.map((clock) => clock.id)).not.toContain(oldest.id)
      expect(after.map((clock) => clock.id)).toContain(mine.body.data.id)
    }, 60_000)

    it("refuses production with a clear message, making nothing", async () => {
      const refused = await trigger({ event: "payment.completed" }, production)
      expect(refused.status, refused.text).toBe(422)
      expect(refused.body.message).toBe("Triggers are sandbox only.")
      expect(refused.body.errors["X-Environment"][0]).toContain("sandbox")
      const payments = await calls.merchant(production, "GET", "/api/v1/payments")
      expect(payments.body.data).toEqual([])
    })
  })
