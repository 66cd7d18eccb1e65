import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { fromIsoString, type Instant } from "../shared/instant.js"
import { planDue } from "./lifecycle.js"
import { planPause, planResume, planUpdate, trialStart } from "./plan-changes.js"
import { type Subscription, SubscriptionTransitionRefused } from "./subscription.js"
import { wakeAtOf } from "./wake.js"
import { subscriptionAt } from "./testing/subscription-fixture.js"

const at = (iso: string): Instant => {
  const instant = fromIsoString(iso)
  if (instant === undefined) throw new Error(`bad test instant ${iso}`)
  return instant
}
const DAY = 86_400_000_000n
const CENT = 1_000_000n
const MIN = Amount(100n * CENT)
const plus = (instant: Instant, micros: bigint) => (instant + micros) as Instant
const JAN31 = at("2028-01-31T09:30:00Z")
const FEB29 = at("2028-02-29T09:30:00Z")
const MAR31 = at("2028-03-31T09:30:00Z")

const subscription = (fields: Partial<Subscription> = {}): Subscription => subscriptionAt(JAN31, {
  status: "active", amount: Amount(1000n * CENT), currentPeriodStart: JAN31, currentPeriodEnd: FEB29, nextBillingAt: FEB29, wakeAt: FEB29,
  ...fields
})

describe("trials", () => {
  it("are active now, first billed at their end, which anchors the periods, with a notice three days before", () => {
    const trial = subscription({ ...trialStart(14, JAN31), currentPeriodStart: JAN31 })
    expect(trial).toMatchObject({ status: "active", trialEnd: plus(JAN31, 14n * DAY), nextBillingAt: plus(JAN31, 14n * DAY), trialNoticeAt: plus(JAN31, 11n * DAY) })
    expect(wakeAtOf(trial)).toBe(plus(JAN31, 11n * DAY))
    expect(planDue(trial, plus(JAN31, 11n * DAY))).toMatchObject({ _tag: "TrialNotice", send: true })
    const noticed = { ...trial, trialNoticeAt: null }
    expect(planDue(noticed, plus(JAN31, 14n * DAY))).toMatchObject({
      _tag: "Renew",
      period: { start: plus(JAN31, 14n * DAY), end: at("2028-03-14T09:30:00Z") }
    })
  })

  it("shorter than three days give notice at once", () => {
    expect(trialStart(1, JAN31).trialNoticeAt).toBe(JAN31)
  })

  it("a change during a trial has nothing to prorate", () => {
    const trial = subscription(trialStart(14, JAN31))
    const plan = planUpdate(trial, { amount: Amount(2000n * CENT), billingCycle: "yearly", proration: "now" }, plus(JAN31, DAY), CENT, MIN)
    expect(plan).toEqual({ change: { pendingAmount: null, pendingCycle: null, amount: 2000n * CENT, billingCycle: "yearly" }, invoice: undefined })
  })
})

describe("planUpdate", () => {
  const mid = plus(JAN31, 14n * DAY + DAY / 2n) // 14.5 of 29 days: half the period left

  it("now: an upgrade charges the difference for the unused half, as an invoice of the same period", () => {
    const plan = planUpdate(subscription(), { amount: Amount(3000n * CENT), billingCycle: undefined, proration: "now" }, mid, CENT, MIN)
    expect(plan).toMatchObject({ change: { amount: 3000n * CENT, credit: 0n }, invoice: { amount: 1000n * CENT, period: { start: JAN31, end: FEB29 } } })
  })

  it("now: a downgrade keeps the credit; an upgrade then spends it first", () => {
    const down = planUpdate(subscription(), { amount: Amount(500n * CENT), billingCycle: undefined, proration: "now" }, mid, CENT, MIN)
    expect(down).toMatchObject({ change: { credit: 250n * CENT }, invoice: undefined })
    const credited = subscription({ amount: Amount(500n * CENT), credit: Amount(250n * CENT) })
    const up = planUpdate(credited, { amount: Amount(1500n * CENT), billingCycle: undefined, proration: "now" }, mid, CENT, MIN)
    expect(up).toMatchObject({ change: { credit: 0n }, invoice: { amount: 250n * CENT } })
  })

  it("now: a cycle change re-anchors at the change and charges a whole new period less the unused part", () => {
    const plan = planUpdate(subscription(), { amount: undefined, billingCycle: "yearly", proration: "now" }, mid, CENT, MIN)
    expect(plan).toMatchObject({
      change: { billingCycle: "yearly", billingAnchor: mid, currentPeriodStart: mid, nextBillingAt: plus(mid, 366n * DAY) },
      invoice: { amount: 500n * CENT, period: { start: mid, end: plus(mid, 366n * DAY) } }
    })
  })

  it("next_period stores the change; the renewal applies it, re-anchored at the boundary", () => {
    const plan = planUpdate(subscription(), { amount: Amount(2500n * CENT), billingCycle: "weekly", proration: "next_period" }, mid, CENT, MIN)
    expect(plan).toEqual({ change: { pendingAmount: 2500n * CENT, pendingCycle: "weekly" }, invoice: undefined })
    const stored = subscription({ pendingAmount: Amount(2500n * CENT), pendingCycle: "weekly" })
    expect(planDue(stored, FEB29)).toMatchObject({
      _tag: "Renew",
      billed: 2500n * CENT,
      period: { start: FEB29, end: plus(FEB29, 7n * DAY) },
      change: { status: "past_due", amount: 2500n * CENT, billingCycle: "weekly", billingAnchor: FEB29, pendingAmount: null, pendingCycle: null }
    })
  })

  it("none changes the amount for the next invoice and nothing else", () => {
    expect(planUpdate(subscription(), { amount: Amount(2500n * CENT), billingCycle: undefined, proration: "none" }, mid, CENT, MIN))
      .toEqual({ change: { pendingAmount: null, pendingCycle: null, amount: 2500n * CENT }, invoice: undefined })
  })

  it("refuses a cancelled subscription and answers undefined for no change", () => {
    expect(planUpdate(subscription({ status: "cancelled" }), { amount: Amount(1n), billingCycle: undefined, proration: "now" }, mid, CENT, MIN))
      .toBeInstanceOf(SubscriptionTransitionRefused)
    expect(planUpdate(subscription(), { amount: Amount(1000n * CENT), billingCycle: "monthly", proration: "now" }, mid, CENT, MIN)).toBeUndefined()
  })

  it("a charge below the smallest checkout is carried onto the next invoice", () => {
    // 0.20 more for half the period: a 0.10 charge, too small for a checkout (at least 1.00).
    const plan = planUpdate(subscription(), { amount: Amount(1020n * CENT), billingCycle: undefined, proration: "now" }, mid, CENT, MIN)
    expect(plan).toMatchObject({ change: { credit: -10n * CENT }, invoice: undefined })
    // Half a cent more for half the period: a tie, rounded toward the customer: nothing.
    const tie = planUpdate(subscription(), { amount: Amount(1001n * CENT), billingCycle: undefined, proration: "now" }, mid, CENT, MIN)
    expect(tie).toMatchObject({ change: { credit: 0n }, invoice: undefined })
  })
})

describe("credit at renewal", () => {
  it("pays a renewal in full without an invoice, or is taken off it", () => {
    expect(planDue(subscription({ credit: Amount(1500n * CENT) }), FEB29)).toMatchObject({
      _tag: "RenewFromCredit",
      change: { status: "active", credit: 500n * CENT, currentPeriodStart: FEB29, currentPeriodEnd: MAR31, nextBillingAt: MAR31 }
    })
    expect(planDue(subscription({ credit: Amount(300n * CENT) }), FEB29)).toMatchObject({ _tag: "Renew", billed: 700n * CENT, change: { credit: 0n } })
  })
})

describe("pause and resume", () => {
  it("pause stops billing but keeps an at-period-end cancellation; only active subscriptions pause", () => {
    expect(planPause(subscription(), null, JAN31)).toEqual({ pausedAt: JAN31, resumesAt: null, nextBillingAt: null })
    expect(planPause(subscription({ cancelAtPeriodEnd: true }), null, JAN31)).toMatchObject({ nextBillingAt: FEB29 })
    expect(planPause(subscription({ status: "past_due" }), null, JAN31)).toBeInstanceOf(SubscriptionTransitionRefused)
    expect(planPause(subscription({ pausedAt: JAN31 }), null, JAN31)).toBeInstanceOf(SubscriptionTransitionRefused)
  })

  it("a paused subscription is not billed at its period end, and wakes for its resumes_at", () => {
    const paused = subscription({ pausedAt: JAN31, resumesAt: MAR31, nextBillingAt: null })
    expect(planDue(paused, FEB29)).toEqual({ _tag: "NotDue" })
    expect(wakeAtOf(paused)).toBe(MAR31)
    expect(planDue(paused, MAR31)).toMatchObject({ _tag: "Resume", change: { pausedAt: null, nextBillingAt: at("2028-04-30T09:30:00Z") } })
  })

  it("resume inside the paid period keeps it; after it, billing resumes at the next boundary", () => {
    const paused = subscription({ pausedAt: JAN31, nextBillingAt: null })
    expect(planResume(paused, plus(JAN31, DAY))).toEqual({ pausedAt: null, resumesAt: null, nextBillingAt: FEB29 })
    const later = plus(FEB29, DAY)
    expect(planResume(paused, later)).toEqual({ pausedAt: null, resumesAt: null, currentPeriodStart: later, currentPeriodEnd: MAR31, nextBillingAt: MAR31 })
    expect(planResume(subscription(), later)).toBeInstanceOf(SubscriptionTransitionRefused)
  })
})
