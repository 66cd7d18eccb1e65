import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { expectHtml, getPage } from "./checkout-html.js"
import type { MerchantCaller } from "./fixtures.js"
import { createShop, simulate, statusOf } from "./payment-fixtures.js"
import type { Target } from "./signing.js"
import {
  advancePast, businessNow, cancel, current, hasManualClock, INVALID_STATE, isoMicros, millisOf, renew, runSchedulerUntil, subscribe,
  SUBSCRIPTION_KEYS
} from "./subscription-fixtures.js"

const DAY_MILLIS = 24 * 3600 * 1000

/** A 200 answer of cancel or renew: `{data}` holding the whole subscription. */
const changed = (response: Parameters<typeof expectOk>[0]): any => {
  const body = expectOk(response)
  expect(Object.keys(body)).toEqual(["data"])
  expect(Object.keys(body.data).sort()).toEqual(SUBSCRIPTION_KEYS)
  return body.data
}

const pay = async (caller: MerchantCaller, trxId: string): Promise<void> => {
  expect(expectOk(await simulate(caller, trxId, "success")).status).toBe("success")
}

/** A voided invoice is out of play: its link answers 410 and its payment can no longer complete. */
const expectVoided = async (target: Target, caller: MerchantCaller, invoice: { payment_url: string; trx_id: string }) => {
  expectHtml(await getPage(target, invoice.payment_url), 410)
  expectError(await simulate(caller, invoice.trx_id, "success"), { status: 409, errorCode: "INVALID_STATE" })
  expect(await statusOf(caller, invoice.trx_id)).toBe("failed")
}

/** A cancelled subscription refuses every further change with 409 and stays cancelled. */
const expectFinal = async (caller: MerchantCaller, id: string) => {
  for (const response of [await cancel(caller, id), await cancel(caller, id, { at_period_end: false }), await renew(caller, id), await renew(caller, id, { force_new: true })]) {
    expectError(response, INVALID_STATE)
  }
  expect((await current(caller, id)).status).toBe("cancelled")
}

/** Spec 4.8, 4.9 and 3.2 on the current moment: cancel and renew without moving the clock. */
export const subscriptionChangeCases = (target: () => Target) =>
  describe("subscriptions: cancel and renew", () => {
    it.each([["{} (at_period_end defaults to true)", {}], ["at_period_end false", { at_period_end: false }]])(
      "cancels a pending subscription now with %s: its invoice is void, its link answers 410, simulate 409; then cancel and renew answer 409",
      async (_, body) => {
        const shop = await createShop(target())
        const created = await subscribe(shop.sandbox)
        const cancelled = changed(await cancel(shop.sandbox, created.id, body))
        expect(cancelled).toMatchObject({ id: created.id, status: "cancelled", cancel_at_period_end: false, next_billing_at: null })
        expect(cancelled.cancelled_at).toMatch(ISO_MICROS)
        expect(cancelled.latest_invoice).toMatchObject({ id: created.latest_invoice.id, status: "void" })
        await expectVoided(target(), shop.sandbox, created.latest_invoice)
        await expectFinal(shop.sandbox, created.id)
      }
    )

    it("renew on pending returns the open invoice; force_new opens sequence 2 and the old link answers 410", async () => {
      const shop = await createShop(target())
      const created = await subscribe(shop.sandbox)
      const first = created.latest_invoice
      for (const body of [{}, { force_new: false }]) {
        const renewed = changed(await renew(shop.sandbox, created.id, body))
        expect(renewed.status).toBe("pending")
        expect(renewed.latest_invoice).toEqual(first)
      }
      const forced = changed(await renew(shop.sandbox, created.id, { force_new: true }))
      const second = forced.latest_invoice
      expect(forced.status).toBe("pending")
      expect(second).toMatchObject({ sequence: 2, status: "pending", period_start: first.period_start, period_end: first.period_end })
      expect(second.id).not.toBe(first.id)
      expect(second.trx_id).not.toBe(first.trx_id)
      expect(second.reference).not.toBe(first.reference)
      await expectVoided(target(), shop.sandbox, first)
      expectHtml(await getPage(target(), second.payment_url), 200)
      expect((await current(shop.sandbox, created.id)).invoices.map((i: any) => [i.sequence, i.status])).toEqual([[2, "pending"], [1, "void"]])

      await pay(shop.sandbox, second.trx_id)
      expect(await current(shop.sandbox, created.id)).toMatchObject({ status: "active", latest_invoice: { sequence: 2, status: "paid" } })
    })

    it("retrieve returns the latest 20 invoices, newest first (21 made by force_new)", async () => {
      const shop = await createShop(target())
      const created = await subscribe(shop.sandbox)
      for (let i = 0; i < 20; i++) changed(await renew(shop.sandbox, created.id, { force_new: true }))
      const invoices = (await current(shop.sandbox, created.id)).invoices as Array<{ sequence: number; status: string }>
      expect(invoices.map((invoice) => invoice.sequence)).toEqual(Array.from({ length: 20 }, (_, i) => 21 - i))
      expect(invoices.map((invoice) => invoice.status)).toEqual(["pending", ...Array(19).fill("void")])
    })

    it("renew after a failed payment opens a fresh checkout for the same period; the failed invoice is expired", async () => {
      const shop = await createShop(target())
      const created = await subscribe(shop.sandbox)
      expect(expectOk(await simulate(shop.sandbox, created.latest_invoice.trx_id, "failed")).status).toBe("failed")
      const after = await current(shop.sandbox, created.id)
      expect(after).toMatchObject({ status: "pending", latest_invoice: { sequence: 1, status: "expired" } })
      const renewed = changed(await renew(shop.sandbox, created.id))
      expect(renewed.latest_invoice).toMatchObject({ sequence: 2, status: "pending", period_start: created.latest_invoice.period_start })
      expect(renewed.latest_invoice.trx_id).not.toBe(created.latest_invoice.trx_id)
      // Asked again, renew returns that open checkout instead of making another.
      expect(changed(await renew(shop.sandbox, created.id)).latest_invoice).toEqual(renewed.latest_invoice)
    })

    it("activates on the paid first invoice; an active subscription refuses renew (409), cancels at period end by default and now when asked", async () => {
      const shop = await createShop(target())
      const created = await subscribe(shop.sandbox)
      const invoice = created.latest_invoice
      await pay(shop.sandbox, invoice.trx_id)
      const active = await current(shop.sandbox, created.id)
      expect(active).toMatchObject({
        status: "active",
        current_period_start: invoice.period_start,
        current_period_end: invoice.period_end,
        next_billing_at: invoice.period_end,
        latest_invoice: { id: invoice.id, sequence: 1, status: "paid" }
      })
      expect(active.latest_invoice.paid_at).toMatch(ISO_MICROS)

      for (const body of [{}, { force_new: true }]) expectError(await renew(shop.sandbox, created.id, body), INVALID_STATE)
      const ending = changed(await cancel(shop.sandbox, created.id))
      expect(ending).toMatchObject({ status: "active", cancel_at_period_end: true, cancelled_at: null, current_period_end: invoice.period_end })
      expectError(await renew(shop.sandbox, created.id), INVALID_STATE)

      const now = changed(await cancel(shop.sandbox, created.id, { at_period_end: false }))
      expect(now).toMatchObject({ status: "cancelled", latest_invoice: { id: invoice.id, status: "paid" } })
      expect(now.cancelled_at).toMatch(ISO_MICROS)
      await expectFinal(shop.sandbox, created.id)
    })

    it.each([["cancel", { at_period_end: "yes" }, "at_period_end"], ["renew", { force_new: 1 }, "force_new"]])(
      "%s refuses a flag that is not a boolean with 422 and changes nothing",
      async (action, body, field) => {
        const shop = await createShop(target())
        const created = await subscribe(shop.sandbox)
        const response = action === "cancel" ? await cancel(shop.sandbox, created.id, body) : await renew(shop.sandbox, created.id, body)
        expectError(response, { status: 422, fields: [field] })
        expect(await current(shop.sandbox, created.id)).toMatchObject({ status: "pending", latest_invoice: created.latest_invoice })
      }
    )
  })

/**
 * The scheduler on business time (spec 3.2, 4.10): POST /admin/v1/clock/advance and
 * /admin/v1/scheduler/run on a CLOCK=manual host. The clock only moves forward and every case on the
 * host shares it, so these run after the others (before the expiry cases) and move it by the least
 * each step needs: a daily cycle, one second past each boundary.
 */
export const subscriptionLifecycleCases = (target: () => Target) =>
  describe("subscriptions: scheduler on business time", () => {
    it("a future starts_at waits pending with no invoice and next_billing_at = starts_at; once due, the scheduler opens invoice 1", async (context) => {
      const shop = await createShop(target())
      const startsAt = isoMicros(Math.floor((await businessNow(target())) / 1000) * 1000 + 120_000)
      const created = await subscribe(shop.sandbox, { starts_at: startsAt, billing_cycle: "daily" })
      expect(created).toMatchObject({ status: "pending", latest_invoice: null, starts_at: startsAt, next_billing_at: startsAt })
      expect(await current(shop.sandbox, created.id)).toMatchObject({ latest_invoice: null, invoices: [] })
      expectError(await renew(shop.sandbox, created.id), INVALID_STATE)
      if (!(await hasManualClock(target()))) return context.skip("the host has no manual clock (CLOCK=manual)")

      await advancePast(target(), startsAt)
      await runSchedulerUntil(target(), async () => (await current(shop.sandbox, created.id)).latest_invoice !== null)
      const started = await current(shop.sandbox, created.id)
      expect(started).toMatchObject({ status: "pending", next_billing_at: null, latest_invoice: { sequence: 1, status: "pending", period_start: startsAt } })
      expect(millisOf(started.latest_invoice.period_end) - millisOf(startsAt)).toBe(DAY_MILLIS)
      expectHtml(await getPage(target(), started.latest_invoice.payment_url), 200)
      await pay(shop.sandbox, started.latest_invoice.trx_id)
      expect(await current(shop.sandbox, created.id)).toMatchObject({ status: "active", current_period_start: startsAt })
    })

    it("daily: paid -> past_due with invoice 2 at period end -> renew returns it -> paid, active -> cancel at period end -> cancelled when it ends", async (context) => {
      if (!(await hasManualClock(target()))) return context.skip("the host has no manual clock (CLOCK=manual)")
      const shop = await createShop(target())
      const created = await subscribe(shop.sandbox, { billing_cycle: "daily" })
      const first = created.latest_invoice
      await pay(shop.sandbox, first.trx_id)
      expect(await current(shop.sandbox, created.id)).toMatchObject({ status: "active", current_period_end: first.period_end, next_billing_at: first.period_end })

      await advancePast(target(), first.period_end)
      await runSchedulerUntil(target(), async () => (await current(shop.sandbox, created.id)).status !== "active")
      const due = await current(shop.sandbox, created.id)
      expect(due).toMatchObject({ status: "past_due", next_billing_at: null, current_period_end: first.period_end })
      const second = due.latest_invoice
      expect(second).toMatchObject({ sequence: 2, status: "pending", period_start: first.period_end })
      expect(millisOf(second.period_end) - millisOf(second.period_start)).toBe(DAY_MILLIS)
      expect(due.invoices.map((invoice: any) => [invoice.sequence, invoice.status])).toEqual([[2, "pending"], [1, "paid"]])

      expect(changed(await renew(shop.sandbox, created.id)).latest_invoice).toEqual(second)
      await pay(shop.sandbox, second.trx_id)
      const renewed = await current(shop.sandbox, created.id)
      expect(renewed).toMatchObject({ status: "active", current_period_start: second.period_start, current_period_end: second.period_end, next_billing_at: second.period_end })

      const ending = changed(await cancel(shop.sandbox, created.id))
      expect(ending).toMatchObject({ status: "active", cancel_at_period_end: true, cancelled_at: null })
      await advancePast(target(), second.period_end)
      await runSchedulerUntil(target(), async () => (await current(shop.sandbox, created.id)).status !== "active")
      const cancelled = await current(shop.sandbox, created.id)
      expect(cancelled).toMatchObject({ status: "cancelled", cancelled_at: second.period_end, next_billing_at: null, cancel_at_period_end: true })
      // No further invoice was opened.
      expect(cancelled.invoices.map((invoice: any) => [invoice.sequence, invoice.status])).toEqual([[2, "paid"], [1, "paid"]])
      await expectFinal(shop.sandbox, created.id)
    })
  })
