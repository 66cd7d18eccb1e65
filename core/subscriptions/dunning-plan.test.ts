import { describe, expect, it } from "vitest"
import { fromIsoString, type Instant } from "../shared/instant.js"
import { type BillingSettings, defaultBillingSettings } from "./billing-settings.js"
import { newDunning } from "./dunning-plan.js"
import { type DuePlan, planCancel, planDue, planPaid } from "./lifecycle.js"
import type { Invoice, Subscription } from "./subscription.js"
import { wakeAtOf } from "./wake.js"
import { invoiceFor, subscriptionAt } from "./testing/subscription-fixture.js"

const at = (iso: string): Instant => fromIsoString(iso)!
// A monthly subscription whose Mar 31 renewal fell due unpaid: dunning counts days from then.
const DUE = at("2028-03-31T09:30:00.123456Z")
const daysAfter = (days: number, micros = 0n): Instant => (DUE + BigInt(days) * 86_400_000_000n + micros) as Instant

const pastDue = (settings: BillingSettings = defaultBillingSettings): Subscription => subscriptionAt(at("2028-01-31T09:30:00.123456Z"), {
  status: "past_due", currentPeriodStart: at("2028-02-29T09:30:00.123456Z"), currentPeriodEnd: DUE,
  dunning: newDunning(settings, DUE), updatedAt: DUE
})

/** Applies a plan's change as moveSubscription would. */
const apply = (subscription: Subscription, plan: DuePlan): Subscription => {
  if (!("change" in plan)) throw new Error(`no change in ${plan._tag}`)
  const next = { ...subscription, ...plan.change }
  return { ...next, wakeAt: wakeAtOf(next) }
}

/** Runs the scheduler's decisions at every wake time until nothing is due: the steps and when each fell. */
const walk = (start: Subscription) => {
  const steps: Array<{ readonly tag: string; readonly at: Instant; readonly step?: number; readonly action?: string }> = []
  let subscription = { ...start, wakeAt: wakeAtOf(start) }
  for (let guard = 0; guard < 20 && subscription.wakeAt !== null; guard++) {
    const when = subscription.wakeAt
    // Just before its time nothing is due: steps never come early.
    expect(planDue(subscription, (when - 1n) as Instant)._tag).toBe("NotDue")
    const plan = planDue(subscription, when)
    if (plan._tag === "DunningReminder") steps.push({ tag: plan._tag, at: when, step: plan.step })
    else if (plan._tag === "DunningFinal") steps.push({ tag: plan._tag, at: when, action: plan.action })
    else throw new Error(`unexpected ${plan._tag}`)
    subscription = apply(subscription, plan)
  }
  return { steps, end: subscription }
}

describe("dunning planning", () => {
  it("the default campaign: reminders on days 1, 3 and 7 after the renewal fell due, then cancel on day 14", () => {
    const { end, steps } = walk(pastDue())
    expect(steps).toEqual([
      { tag: "DunningReminder", at: daysAfter(1), step: 1 },
      { tag: "DunningReminder", at: daysAfter(3), step: 2 },
      { tag: "DunningReminder", at: daysAfter(7), step: 3 },
      { tag: "DunningFinal", at: daysAfter(14), action: "cancel" }
    ])
    // Cancelled at the grace period's end, as an immediate cancel is, and the campaign over.
    expect(end).toMatchObject({ status: "cancelled", cancelledAt: daysAfter(14), nextBillingAt: null, dunning: null, wakeAt: null })
  })

  it("a reminder moves the campaign on: one more step done, the next one's time, the wake time with it", () => {
    const plan = planDue(pastDue(), daysAfter(3))
    expect(plan._tag).toBe("DunningReminder")
    const moved = apply(pastDue(), plan)
    expect(moved.dunning).toMatchObject({ startedAt: DUE, step: 1, nextAt: daysAfter(3) })
    expect(moved.status).toBe("past_due")
    // A late scheduler sends one step per wake, in order: the second reminder is due at once.
    expect(planDue(moved, daysAfter(3))).toMatchObject({ _tag: "DunningReminder", step: 2 })
  })

  it("custom days and stay_past_due: reminders on days 2 and 5, then the campaign ends and the subscription stays past_due", () => {
    const { end, steps } = walk(pastDue({ ...defaultBillingSettings, reminderDays: [2, 5], graceDays: 10, finalAction: "stay_past_due" }))
    expect(steps).toEqual([
      { tag: "DunningReminder", at: daysAfter(2), step: 1 },
      { tag: "DunningReminder", at: daysAfter(5), step: 2 },
      { tag: "DunningFinal", at: daysAfter(10), action: "stay_past_due" }
    ])
    expect(end).toMatchObject({ status: "past_due", cancelledAt: null, dunning: null, wakeAt: null })
  })

  it("no reminders: the final action alone at the grace period's end; reminders on or after it are never sent", () => {
    expect(walk(pastDue({ ...defaultBillingSettings, reminderDays: [], graceDays: 3 })).steps).toEqual([
      { tag: "DunningFinal", at: daysAfter(3), action: "cancel" }
    ])
    expect(walk(pastDue({ ...defaultBillingSettings, reminderDays: [1, 5, 9], graceDays: 5 })).steps.map((s) => s.tag)).toEqual([
      "DunningReminder", "DunningFinal"
    ])
  })

  it("the campaign keeps the terms it began with", () => {
    const dunning = newDunning({ ...defaultBillingSettings, reminderDays: [4], graceDays: 6, finalAction: "stay_past_due" }, DUE)
    expect(dunning).toEqual({ startedAt: DUE, step: 0, nextAt: daysAfter(4), reminderDays: [4], graceDays: 6, finalAction: "stay_past_due" })
  })

  it("a recovered payment stops the campaign: the subscription is active, no dunning left, next wake its new period's end", () => {
    const subscription = apply(pastDue(), planDue(pastDue(), daysAfter(1)))
    const invoice: Invoice = invoiceFor(DUE, at("2028-04-30T09:30:00.123456Z"), { id: "inv-2", sequence: 2, checkoutExpiresAt: daysAfter(2) })
    const paid = planPaid(subscription, invoice)
    if (!("change" in paid)) throw new Error("refused")
    const moved = { ...subscription, ...paid.change }
    expect(moved).toMatchObject({ status: "active", dunning: null, nextBillingAt: invoice.periodEnd })
    expect(wakeAtOf(moved)).toBe(invoice.periodEnd)
    // Nothing of the campaign is due any more, however late.
    expect(planDue(moved, daysAfter(14))._tag).toBe("NotDue")
  })

  it("a cancel ends the campaign too, and a cancelled subscription waits for nothing", () => {
    const plan = planCancel(pastDue(), false, daysAfter(2))
    if (!("change" in plan)) throw new Error("refused")
    expect(plan.change).toMatchObject({ status: "cancelled", dunning: null })
    expect(wakeAtOf({ ...pastDue(), ...plan.change })).toBeNull()
  })

  it("a subscription without a campaign, or not past_due, has no dunning step", () => {
    expect(planDue({ ...pastDue(), dunning: null }, daysAfter(30))._tag).toBe("NotDue")
    expect(planDue({ ...pastDue(), status: "active" }, daysAfter(30))._tag).toBe("NotDue")
  })

  it("the wake time is the earliest of the billing date and the next dunning step", () => {
    expect(wakeAtOf(pastDue())).toBe(daysAfter(1))
    expect(wakeAtOf({ ...pastDue(), nextBillingAt: DUE })).toBe(DUE)
  })
})
