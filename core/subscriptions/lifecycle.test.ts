import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { fromIsoString, type Instant } from "../shared/instant.js"
import { duePeriod, isOpen, planCancel, planDue, planPaid, planRenew } from "./lifecycle.js"
import { type Invoice, type Subscription, type SubscriptionStatus, SubscriptionTransitionRefused } from "./subscription.js"
import { subscriptionAt } from "./testing/subscription-fixture.js"

// One test per row of spec 3.2 (state | trigger | condition -> next state; also happens), on a monthly
// subscription anchored Jan 31 2028 at a time with microseconds: periods Jan 31, Feb 29, Mar 31, Apr 30.
const at = (iso: string): Instant => {
  const instant = fromIsoString(iso)
  if (instant === undefined) throw new Error(`bad test instant ${iso}`)
  return instant
}
const day = (date: string): Instant => at(`${date}T09:30:00.123456Z`)
const JAN31 = day("2028-01-31")
const FEB29 = day("2028-02-29")
const MAR31 = day("2028-03-31")
const APR30 = day("2028-04-30")
const MICRO = 1n
const later = (instant: Instant, micros: bigint): Instant => (instant + micros) as Instant

const subscription = (fields: Partial<Subscription> = {}): Subscription => subscriptionAt(JAN31, fields)
const pending = (fields: Partial<Subscription> = {}) => subscription({ status: "pending", ...fields })
/** Paid for [start, end); the scheduler renews it at end. */
const active = (start: Instant, end: Instant, fields: Partial<Subscription> = {}) =>
  subscription({ status: "active", currentPeriodStart: start, currentPeriodEnd: end, nextBillingAt: end, ...fields })
/** Paid for [start, end), which has ended; it waits for a payment or a renew. */
const pastDue = (start: Instant, end: Instant) =>
  subscription({ status: "past_due", currentPeriodStart: start, currentPeriodEnd: end, nextBillingAt: null })
const cancelled = () => subscription({ status: "cancelled", currentPeriodStart: JAN31, currentPeriodEnd: FEB29, cancelledAt: FEB29 })

const invoice = (fields: Partial<Invoice> = {}): Invoice => ({
  id: "inv-1", subscriptionId: "sub-1", sequence: 1, reference: "INV-inv-1", number: "INV-2024-000001", status: "pending", amount: Amount(1_000_000_000n),
  currency: "USD", trxId: "SANDBOX_0123456789ABCDEFGHJKMNPQRS", periodStart: JAN31, periodEnd: FEB29,
  checkoutExpiresAt: later(JAN31, 3_600_000_000n), paidAt: null, createdAt: JAN31, updatedAt: JAN31, ...fields
})

const expectRefused = (result: unknown, status: SubscriptionStatus, action: string) => {
  expect(result).toBeInstanceOf(SubscriptionTransitionRefused)
  const refused = result as SubscriptionTransitionRefused
  expect(refused._tag).toBe("SubscriptionTransitionRefused")
  expect({ status: refused.status, action: refused.action }).toEqual({ status, action })
  expect(refused.message).toMatch(/^[A-Z].*[^.]\.$/)
}

describe("spec 3.2 subscription status table", () => {
  it("(none) | POST create | valid request, immediate start -> pending; first invoice and payment_url created", () => {
    const created = pending({ startsAt: JAN31, createdAt: JAN31 })
    expect(duePeriod(created)).toEqual({ start: JAN31, end: FEB29 })
    // The first invoice was opened with the subscription: the scheduler has nothing to do for it.
    expect(planDue(created, APR30)).toEqual({ _tag: "NotDue" })
    const first = invoice()
    expect(planRenew(created, first, false, later(JAN31, 60n))).toEqual({ _tag: "ReturnOpen", invoice: first })
  })

  it("(none) | POST create | starts_at in the future -> pending; scheduled, the start has not arrived", () => {
    const START = day("2028-03-15")
    const scheduled = pending({ createdAt: JAN31, startsAt: START, nextBillingAt: START })
    // The anchor is starts_at, not the creation time.
    expect(duePeriod(scheduled)).toEqual({ start: START, end: day("2028-04-15") })
    expect(planDue(scheduled, later(START, -MICRO))).toEqual({ _tag: "NotDue" })
    const start = { _tag: "Start", period: { start: START, end: day("2028-04-15") }, change: { nextBillingAt: null } }
    expect(planDue(scheduled, START)).toEqual(start)
    expect(planDue(scheduled, APR30)).toEqual(start)
    expectRefused(planRenew(scheduled, undefined, false, later(START, -MICRO)), "pending", "renew")
    expectRefused(planRenew(scheduled, undefined, true, later(START, -MICRO)), "pending", "renew")
    // Arrived but not yet processed: renew starts it as the scheduler would, so the scheduler cannot open a second invoice.
    expect(planRenew(scheduled, undefined, false, START)).toEqual({ _tag: "RunDue", plan: start })
  })

  it("pending | verified completed payment of the first invoice | payment completed -> active; access period starts, next_billing_at set", () => {
    expect(planPaid(pending(), invoice())).toEqual({
      event: "subscription.activated",
      change: { status: "active", currentPeriodStart: JAN31, currentPeriodEnd: FEB29, nextBillingAt: FEB29 }
    })
    // An invoice without a stored period is paid for the period that was due.
    expect(planPaid(pending(), invoice({ periodStart: null, periodEnd: null }))).toMatchObject({
      change: { currentPeriodStart: JAN31, currentPeriodEnd: FEB29, nextBillingAt: FEB29 }
    })
  })

  it("active | scheduler / period end | paid period ended -> past_due; one due invoice for the next anchored period", () => {
    expect(planDue(active(JAN31, FEB29), later(FEB29, -MICRO))).toEqual({ _tag: "NotDue" })
    expect(planDue(active(JAN31, FEB29), FEB29)).toEqual({
      _tag: "Renew", period: { start: FEB29, end: MAR31 }, change: { status: "past_due", nextBillingAt: null }
    })
    // Jan 31 -> Feb 29 -> Mar 31: the day comes from the anchor, not from the clamped Feb 29.
    expect(planDue(active(FEB29, MAR31), later(MAR31, 60_000_000n))).toMatchObject({ _tag: "Renew", period: { start: MAR31, end: APR30 } })
    // A due period the scheduler has not processed yet is renewed by POST renew exactly as the scheduler would.
    const due = planDue(active(JAN31, FEB29), FEB29)
    expect(planRenew(active(JAN31, FEB29), invoice({ status: "paid", paidAt: JAN31 }), false, FEB29)).toEqual({ _tag: "RunDue", plan: due })
    // Past due waits for a payment or a renew, not the scheduler.
    expect(planDue(pastDue(JAN31, FEB29), APR30)).toEqual({ _tag: "NotDue" })
  })

  it("past_due | verified completed payment of the unpaid invoice | payment completed -> active; the period is extended", () => {
    const renewal = invoice({ id: "inv-2", sequence: 2, periodStart: FEB29, periodEnd: MAR31 })
    expect(planPaid(pastDue(JAN31, FEB29), renewal)).toEqual({
      event: "subscription.renewed",
      change: { status: "active", currentPeriodStart: FEB29, currentPeriodEnd: MAR31, nextBillingAt: MAR31 }
    })
  })

  describe("past_due | POST renew | after failure or expiry -> past_due; a fresh pending checkout created or recovered", () => {
    const subscriber = pastDue(JAN31, FEB29)
    const now = later(FEB29, 600_000_000n)
    const open = invoice({ id: "inv-2", sequence: 2, periodStart: FEB29, periodEnd: MAR31, checkoutExpiresAt: later(now, 1n) })
    const nextPeriod = { start: FEB29, end: MAR31 }

    it("returns the open invoice", () => {
      expect(planRenew(subscriber, open, false, now)).toEqual({ _tag: "ReturnOpen", invoice: open })
    })
    it("opens a new invoice for the due period after an expired or failed payment", () => {
      expect(planRenew(subscriber, { ...open, status: "expired" }, false, now)).toEqual({ _tag: "NewInvoice", period: nextPeriod, retire: undefined })
      expect(planRenew(subscriber, { ...open, status: "void" }, false, now)).toEqual({ _tag: "NewInvoice", period: nextPeriod, retire: undefined })
      // The scheduler could not open one: the latest is the paid previous period's.
      const paid = invoice({ status: "paid", paidAt: JAN31 })
      expect(planRenew(subscriber, paid, false, now)).toEqual({ _tag: "NewInvoice", period: nextPeriod, retire: undefined })
    })
    it("retires a pending invoice whose checkout ran out (the expiry moment itself is out) and opens a new one", () => {
      const lapsed = { ...open, checkoutExpiresAt: now }
      expect(planRenew(subscriber, lapsed, false, now)).toEqual({ _tag: "NewInvoice", period: nextPeriod, retire: lapsed })
    })
    it("with force_new retires the open invoice and opens a new one", () => {
      expect(planRenew(subscriber, open, true, now)).toEqual({ _tag: "NewInvoice", period: nextPeriod, retire: open })
    })
    it("does the same for a pending subscription's first invoice", () => {
      const first = invoice()
      expect(planRenew(pending(), first, false, JAN31)).toEqual({ _tag: "ReturnOpen", invoice: first })
      expect(planRenew(pending(), first, true, JAN31)).toEqual({ _tag: "NewInvoice", period: { start: JAN31, end: FEB29 }, retire: first })
      expect(planRenew(pending(), { ...first, status: "expired" }, false, JAN31)).toEqual({ _tag: "NewInvoice", period: { start: JAN31, end: FEB29 }, retire: undefined })
    })
  })

  it("pending, active, past_due | POST cancel with at_period_end=false -> cancelled; pending invoices invalidated", () => {
    const now = later(FEB29, 5n)
    const cancelNow = { _tag: "Now", change: { status: "cancelled", cancelledAt: now, nextBillingAt: null } }
    for (const subscriber of [pending(), pending({ startsAt: APR30, nextBillingAt: APR30 }), active(FEB29, MAR31), pastDue(JAN31, FEB29)]) {
      expect(planCancel(subscriber, false, now)).toEqual(cancelNow)
    }
    // at_period_end has no paid period to wait for on pending and past_due: cancelled now too.
    expect(planCancel(pending(), true, now)).toEqual(cancelNow)
    expect(planCancel(pastDue(JAN31, FEB29), true, now)).toEqual(cancelNow)
  })

  it("active | POST cancel with at_period_end=true | -> cancelled at the end of the paid period; no further invoices", () => {
    const running = active(JAN31, FEB29)
    expect(planCancel(running, true, day("2028-02-10"))).toEqual({ _tag: "AtPeriodEnd", change: { cancelAtPeriodEnd: true } })
    const ending = active(JAN31, FEB29, { cancelAtPeriodEnd: true })
    expect(planDue(ending, later(FEB29, -MICRO))).toEqual({ _tag: "NotDue" })
    const end = { _tag: "EndAtPeriodEnd", change: { status: "cancelled", cancelledAt: FEB29, nextBillingAt: null } }
    expect(planDue(ending, FEB29)).toEqual(end)
    // A late scheduler still dates the cancellation at the period end.
    expect(planDue(ending, MAR31)).toEqual(end)
    expectRefused(planRenew(ending, undefined, false, FEB29), "active", "renew")
    expectRefused(planRenew(ending, undefined, true, day("2028-02-10")), "active", "renew")
  })

  it("active | POST renew | period not yet due -> unchanged; 409 SubscriptionTransitionRefused, active cannot renew early", () => {
    const paid = invoice({ status: "paid", paidAt: JAN31 })
    expectRefused(planRenew(active(JAN31, FEB29), paid, false, JAN31), "active", "renew")
    expectRefused(planRenew(active(JAN31, FEB29), paid, true, later(FEB29, -MICRO)), "active", "renew")
  })

  it("cancelled | any | -> cancelled; no more invoices, cancel, renew and payment refused", () => {
    const ended = cancelled()
    expectRefused(planCancel(ended, false, MAR31), "cancelled", "cancel")
    expectRefused(planCancel(ended, true, MAR31), "cancelled", "cancel")
    expectRefused(planRenew(ended, invoice({ status: "void" }), false, MAR31), "cancelled", "renew")
    expectRefused(planRenew(ended, invoice(), true, MAR31), "cancelled", "renew")
    expectRefused(planPaid(ended, invoice({ periodStart: FEB29, periodEnd: MAR31 })), "cancelled", "pay")
    expect(planDue({ ...ended, nextBillingAt: FEB29 }, MAR31)).toEqual({ _tag: "NotDue" })
  })
})

describe("lifecycle rules beside the table", () => {
  it("a late payment of an old invoice never shortens the paid period", () => {
    const old = invoice({ periodStart: JAN31, periodEnd: FEB29 })
    expect(planPaid(active(MAR31, APR30), old)).toEqual({ event: "subscription.renewed", change: { status: "active" } })
    // The same period paid again changes nothing either.
    expect(planPaid(active(JAN31, FEB29), old)).toEqual({ event: "subscription.renewed", change: { status: "active" } })
  })

  it("a period paid late keeps the invoice's period: the anchor never shifts to the payment time", () => {
    const due = duePeriod(pastDue(JAN31, FEB29))
    expect(due).toEqual({ start: FEB29, end: MAR31 })
    expect(planPaid(pastDue(JAN31, FEB29), invoice({ periodStart: due.start, periodEnd: due.end, paidAt: APR30 })))
      .toMatchObject({ change: { currentPeriodStart: FEB29, currentPeriodEnd: MAR31, nextBillingAt: MAR31 } })
  })

  it("an invoice is open only while pending with a checkout that has not expired", () => {
    const open = invoice({ checkoutExpiresAt: FEB29 })
    expect(isOpen(open, later(FEB29, -MICRO))).toBe(true)
    expect(isOpen(open, FEB29)).toBe(false)
    expect(isOpen({ ...open, checkoutExpiresAt: null }, JAN31)).toBe(false)
    for (const status of ["paid", "expired", "void"] as const) expect(isOpen({ ...open, status }, JAN31)).toBe(false)
  })
})
