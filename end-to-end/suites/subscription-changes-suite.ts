import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { type LoopbackReceiver, startReceiver } from "../../adapters/webhook-http/testing/loopback-receiver.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"
import { sandboxMailOf, sandboxShop } from "./sandbox-shop.js"
import type { MerchantId } from "../../core/shared/ids.js"

type Json = Record<string, any>

const DAY_SECONDS = 86_400
const isoPlusDays = (iso: string, days: number) => new Date(Date.parse(iso) + days * DAY_SECONDS * 1000).toISOString().slice(0, 19)

/**
 * Issue 36, item 4 through the kit's HTTP edge on a manual clock, the scheduler run by the admin
 * endpoint: a trial whose first invoice opens at its end (with the notice three days before), an
 * upgrade prorated now to the exact cent, a downgrade's credit taken off the next invoice, a change
 * stored for the next period, and a pause that skips a renewal until resumed (by hand and by
 * resumes_at); each endpoint's refusals too.
 */
export const subscriptionChangesSuite = (name: string, store: () => StoreConfig) =>
  describe(`subscription changes: ${name}`, () => {
    const manual = makeManualClock(Date.UTC(2028, 0, 31, 9, 30, 0))
    let receiver: LoopbackReceiver
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let caller: TestCaller
    let merchantId: MerchantId
    let serial = 0

    beforeAll(async () => {
      receiver = await startReceiver()
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        manualClock: manual,
        webhooks: { timeoutMs: 30_000, retryDelaysMillis: [500], allowPrivateTargets: true, pollIntervalMillis: 25 },
        scheduler: { enabled: false, batchSize: 100 },
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 }
      })))
      const shop = await runtime.runPromise(sandboxShop("Changes shop", "chg"))
      caller = shop
      merchantId = shop.merchantId
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
    })
    afterAll(async () => {
      await runtime.dispose()
      await receiver.close()
    })

    const call = async (method: string, path: string, body: unknown = undefined, headers: Record<string, string> = {}) => {
      const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body), headers))
      return { status: response.status, json: (await response.json()) as Json, replayed: response.headers.get("idempotent-replayed") }
    }
    const runScheduler = async () => {
      const response = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      expect(response.status).toBe(200)
    }
    const advance = (seconds: number) => runtime.runPromise(manual.advance(seconds))
    const nowIso = () => new Date(Number(manual.unsafeNow() / 1000n)).toISOString()
    const create = (fields: Json = {}) =>
      call("POST", "/api/v1/subscriptions", {
        external_reference: `chg-${++serial}`,
        billing_cycle: "weekly",
        payment_amount: "10.00",
        currency_code: "USD",
        customer_email: "payer@example.com",
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: receiver.url("/ipn"),
        ...fields
      })
    const get = async (id: string) => (await call("GET", `/api/v1/subscriptions/${id}`)).json["data"] as Json
    const pay = async (trxId: string) => {
      const paid = await call("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect(paid.status).toBe(200)
    }
    /** A weekly 10.00 subscription whose first week is paid. */
    const paidWeekly = async (fields: Json = {}) => {
      const created = await create(fields)
      expect(created.status, JSON.stringify(created.json)).toBe(201)
      const id = created.json["data"]["id"] as string
      await pay(created.json["data"]["latest_invoice"]["trx_id"])
      expect(await get(id)).toMatchObject({ status: "active" })
      return id
    }
    const eventTypes = async (id: string) =>
      ((await call("GET", `/api/v1/events?object_id=${id}`)).json["data"] as Array<Json>).map((event) => event["type"])

    it("a trial is active without an invoice, warns three days before its end, and bills its first period from there", async () => {
      for (const [fields, field] of [[{ trial_days: 0 }, "trial_days"], [{ trial_days: 731 }, "trial_days"], [{ trial_days: 1.5 }, "trial_days"], [
        { trial_days: 7, starts_at: isoPlusDays(nowIso(), 2) + "Z" },
        "trial_days"
      ]] as const) {
        const refused = await create(fields)
        expect(refused.status, JSON.stringify(fields)).toBe(422)
        expect(refused.json["errors"][field], JSON.stringify(refused.json)).toBeDefined()
      }
      const start = nowIso()
      const created = await create({ trial_days: 14, billing_cycle: "monthly" })
      expect(created.status).toBe(201)
      const trial = created.json["data"] as Json
      const trialEnd = new Date(Date.parse(start) + 14 * DAY_SECONDS * 1000).toISOString().replace(".000Z", ".000000Z")
      expect(trial).toMatchObject({ status: "active", trial_end: trialEnd, next_billing_at: trialEnd, current_period_end: trialEnd, latest_invoice: null })
      // A subscription without a trial shows no trial_end at all (the contract's bytes).
      expect("trial_end" in (await create()).json["data"]).toBe(false)

      await advance(11 * DAY_SECONDS - 60)
      await runScheduler()
      expect(await eventTypes(trial["id"])).not.toContain("subscription.trial_will_end")
      await advance(60)
      await runScheduler()
      expect(await eventTypes(trial["id"])).toContain("subscription.trial_will_end")
      // The customer is told by mail too, with the day the trial ends and what is billed then.
      const told = (await runtime.runPromise(sandboxMailOf(merchantId, "trial_ending"))).filter((mail) => mail.facts.subscriptionId === trial["id"])
      expect(told.map((mail) => [mail.to, mail.facts.trialEnd])).toEqual([[trial["customer_email"], trialEnd]])
      expect(await get(trial["id"])).toMatchObject({ status: "active", latest_invoice: null })

      await advance(3 * DAY_SECONDS)
      await runScheduler()
      const billed = await get(trial["id"])
      expect(billed).toMatchObject({ status: "past_due", latest_invoice: { sequence: 1, amount: "10.00000000", period_start: trialEnd } })
      expect(String(billed["latest_invoice"]["period_end"]).slice(0, 10)).toBe(isoPlusDays(trialEnd, 29).slice(0, 10)) // Feb 14 -> Mar 14, 2028
      await pay(billed["latest_invoice"]["trx_id"])
      expect(await get(trial["id"])).toMatchObject({ status: "active", current_period_start: trialEnd })
    })

    it("an upgrade prorated now opens an invoice for exactly the unused part's difference", async () => {
      const id = await paidWeekly()
      await advance(DAY_SECONDS) // six of seven days left
      const upgraded = await call("POST", `/api/v1/subscriptions/${id}/update`, { payment_amount: "13.33", proration: "now" })
      expect(upgraded.status).toBe(200)
      // (13.33 - 10.00) x 6/7 = 2.854285...: 2.85, the nearest cent.
      expect(upgraded.json["data"]).toMatchObject({ amount: "13.33000000", latest_invoice: { sequence: 2, status: "pending", amount: "2.85000000" } })
      const before = await get(id)
      expect(before["latest_invoice"]["period_end"]).toBe(before["current_period_end"])
      await pay(upgraded.json["data"]["latest_invoice"]["trx_id"])
      const after = await get(id)
      expect(after).toMatchObject({ status: "active", current_period_end: before["current_period_end"], latest_invoice: { status: "paid" } })
      expect(await eventTypes(id)).toEqual(expect.arrayContaining(["subscription.updated", "invoice.created"]))

      // The next renewal bills the new amount in full.
      await advance(6 * DAY_SECONDS)
      await runScheduler()
      expect(await get(id)).toMatchObject({ status: "past_due", latest_invoice: { sequence: 3, amount: "13.33000000" } })
    })

    it("an update replayed under the same Idempotency-Key opens one proration invoice", async () => {
      const id = await paidWeekly()
      await advance(DAY_SECONDS)
      const body = { payment_amount: "17.00", proration: "now" }
      const first = await call("POST", `/api/v1/subscriptions/${id}/update`, body, { "idempotency-key": `upd-${id}` })
      const again = await call("POST", `/api/v1/subscriptions/${id}/update`, body, { "idempotency-key": `upd-${id}` })
      expect(first.status).toBe(200)
      expect(again).toMatchObject({ status: 200, replayed: "true" })
      // (17.00 - 10.00) x 6/7 = 6.00 exactly.
      expect(again.json["data"]["latest_invoice"]).toMatchObject({ sequence: 2, amount: "6.00000000" })
      expect(((await get(id))["invoices"] as Array<Json>).length).toBe(2)
    })

    it("a downgrade prorated now keeps a credit that the next invoices use up", async () => {
      const id = await paidWeekly()
      await advance(DAY_SECONDS)
      const downgraded = await call("POST", `/api/v1/subscriptions/${id}/update`, { payment_amount: "1.00", proration: "now" })
      expect(downgraded.status).toBe(200)
      // (1.00 - 10.00) x 6/7 = -7.714285...: a 7.71 credit, no invoice.
      expect(downgraded.json["data"]).toMatchObject({ amount: "1.00000000", credit: "7.71000000", latest_invoice: { sequence: 1, status: "paid" } })
      // Seven renewals of 1.00 are paid by the credit; the eighth's 0.29 left is below the smallest
      // checkout (1.00), so it is carried onto the ninth invoice: 1.29.
      await advance(6 * DAY_SECONDS)
      for (let week = 0; week < 8; week++) {
        await runScheduler()
        const renewed = await get(id)
        expect(renewed).toMatchObject({ status: "active", latest_invoice: { sequence: 1 } })
        await advance(7 * DAY_SECONDS)
      }
      await runScheduler()
      const billed = await get(id)
      expect(billed["latest_invoice"]["sequence"]).toBe(2)
      expect(billed["latest_invoice"]["amount"]).toBe("1.29000000")
      expect("credit" in billed).toBe(false)
    })

    it("a change for the next period is shown as pending and billed at the renewal", async () => {
      const id = await paidWeekly()
      const stored = await call("POST", `/api/v1/subscriptions/${id}/update`, { payment_amount: "25.00", billing_cycle: "monthly", proration: "next_period" })
      expect(stored.status).toBe(200)
      expect(stored.json["data"]).toMatchObject({ amount: "10.00000000", billing_cycle: "weekly", pending_change: { amount: "25.00000000", billing_cycle: "monthly" } })
      const periodEnd = stored.json["data"]["current_period_end"] as string
      await advance(7 * DAY_SECONDS)
      await runScheduler()
      const renewed = await get(id)
      expect(renewed).toMatchObject({ amount: "25.00000000", billing_cycle: "monthly", latest_invoice: { sequence: 2, amount: "25.00000000", period_start: periodEnd } })
      expect("pending_change" in renewed).toBe(false)
    })

    it("update refuses what it cannot do, clearly", async () => {
      const id = await paidWeekly()
      const cases: Array<[Json, number, string]> = [
        [{ proration: "now" }, 422, "payment_amount"],
        [{ payment_amount: "10.00", proration: "later" }, 422, "proration"],
        [{ payment_amount: "0.50", proration: "now" }, 422, "payment_amount"],
        [{ payment_amount: "10.00", proration: "none" }, 422, "payment_amount"],
        [{ billing_cycle: "fortnightly", proration: "none" }, 422, "billing_cycle"]
      ]
      for (const [body, status, field] of cases) {
        const refused = await call("POST", `/api/v1/subscriptions/${id}/update`, body)
        expect(refused.status, JSON.stringify(body)).toBe(status)
        expect(refused.json["errors"][field], JSON.stringify(refused.json)).toBeDefined()
      }
      expect((await call("POST", `/api/v1/subscriptions/nope/update`, { payment_amount: "12.00", proration: "now" })).status).toBe(404)
      expect((await call("POST", `/api/v1/subscriptions/${id}/cancel`, { at_period_end: false })).status).toBe(200)
      const cancelled = await call("POST", `/api/v1/subscriptions/${id}/update`, { payment_amount: "12.00", proration: "now" })
      expect(cancelled.status).toBe(409)
      expect(cancelled.json["message"]).toMatch(/cancelled/)
    })

    it("a paused subscription opens no invoice at its period end and bills again from the next boundary after resume", async () => {
      const id = await paidWeekly()
      const periodEnd = (await get(id))["current_period_end"] as string
      const paused = await call("POST", `/api/v1/subscriptions/${id}/pause`, {})
      expect(paused.status).toBe(200)
      expect(paused.json["data"]).toMatchObject({ status: "active", next_billing_at: null })
      expect(typeof paused.json["data"]["paused_at"]).toBe("string")
      expect((await call("POST", `/api/v1/subscriptions/${id}/pause`, {})).status).toBe(409)

      await advance(7 * DAY_SECONDS + 60)
      await runScheduler()
      expect(await get(id)).toMatchObject({ status: "active", latest_invoice: { sequence: 1, status: "paid" } })

      await advance(DAY_SECONDS) // resumed one day into the second week: billing resumes at its end
      const resumed = await call("POST", `/api/v1/subscriptions/${id}/resume`)
      expect(resumed.status).toBe(200)
      const nextBoundary = isoPlusDays(periodEnd, 7)
      expect(String(resumed.json["data"]["next_billing_at"]).slice(0, 19)).toBe(nextBoundary)
      expect("paused_at" in resumed.json["data"]).toBe(false)
      expect((await call("POST", `/api/v1/subscriptions/${id}/resume`)).status).toBe(409)

      await advance(6 * DAY_SECONDS)
      await runScheduler()
      const billed = await get(id)
      expect(billed).toMatchObject({ status: "past_due", latest_invoice: { sequence: 2, amount: "10.00000000" } })
      expect(String(billed["latest_invoice"]["period_start"]).slice(0, 19)).toBe(nextBoundary)
      expect(await eventTypes(id)).toEqual(expect.arrayContaining(["subscription.paused", "subscription.resumed"]))
    })

    it("resumes_at resumes by itself; pause refuses a past resumes_at and a pending subscription", async () => {
      const pending = await create()
      const refusedPending = await call("POST", `/api/v1/subscriptions/${pending.json["data"]["id"]}/pause`, {})
      expect(refusedPending.status).toBe(409)
      expect(refusedPending.json["message"]).toMatch(/Only an active subscription/)

      const id = await paidWeekly()
      const past = await call("POST", `/api/v1/subscriptions/${id}/pause`, { resumes_at: "2000-01-01T00:00:00Z" })
      expect(past.status).toBe(422)
      expect(past.json["errors"]["resumes_at"]).toBeDefined()
      const resumesAt = isoPlusDays(nowIso(), 10) + "Z"
      const paused = await call("POST", `/api/v1/subscriptions/${id}/pause`, { resumes_at: resumesAt })
      expect(paused.status).toBe(200)
      expect(String(paused.json["data"]["resumes_at"]).slice(0, 19)).toBe(resumesAt.slice(0, 19))
      await advance(10 * DAY_SECONDS + 60)
      await runScheduler()
      const resumed = await get(id)
      expect("paused_at" in resumed).toBe(false)
      expect(resumed["next_billing_at"]).not.toBeNull()
      expect(await eventTypes(id)).toContain("subscription.resumed")
    })
  })
