import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { fromIsoString, type Instant } from "../shared/instant.js"
import { upcomingInvoices } from "./billing-schedule.js"
import type { Subscription } from "./subscription.js"
import { subscriptionAt } from "./testing/subscription-fixture.js"

const at = (iso: string): Instant => fromIsoString(iso)!
const CENT = 1_000_000n
const JAN31 = at("2028-01-31T09:30:00Z")
const FEB29 = at("2028-02-29T09:30:00Z")

const subscription = (fields: Partial<Subscription> = {}): Subscription => subscriptionAt(JAN31, {
  status: "active", amount: Amount(1000n * CENT), currentPeriodStart: JAN31, currentPeriodEnd: FEB29, nextBillingAt: FEB29, wakeAt: FEB29,
  ...fields
})

describe("upcomingInvoices", () => {
  it("follows the anchor's calendar and spends the credit in turn", () => {
    const schedule = upcomingInvoices(subscription({ credit: Amount(1250n * CENT) }), 3)
    expect(schedule.map((invoice) => [invoice.at, invoice.amount])).toEqual([
      [FEB29, 0n],
      [at("2028-03-31T09:30:00Z"), 750n * CENT],
      [at("2028-04-30T09:30:00Z"), 1000n * CENT]
    ])
  })

  it("applies a stored change from the next renewal, re-anchored there", () => {
    const schedule = upcomingInvoices(subscription({ pendingAmount: Amount(99n * CENT * 10n), pendingCycle: "weekly" }), 2)
    expect(schedule).toEqual([
      { at: FEB29, periodEnd: at("2028-03-07T09:30:00Z"), amount: 990n * CENT },
      { at: at("2028-03-07T09:30:00Z"), periodEnd: at("2028-03-14T09:30:00Z"), amount: 990n * CENT }
    ])
  })

  it("is empty while paused, cancelled, ending, or waiting on a payment", () => {
    expect(upcomingInvoices(subscription({ pausedAt: JAN31, nextBillingAt: null }), 3)).toEqual([])
    expect(upcomingInvoices(subscription({ cancelAtPeriodEnd: true }), 3)).toEqual([])
    expect(upcomingInvoices(subscription({ status: "past_due", nextBillingAt: null }), 3)).toEqual([])
  })
})
