import { Amount } from "../money/amount.js"
import type { Instant } from "../shared/instant.js"
import { periodBoundary, periodIndexAt } from "./billing-calendar.js"
import { MINIMUM_CHARGE } from "./plan-changes.js"
import { applyCredit } from "./proration.js"
import type { Subscription } from "./subscription.js"

/** One invoice the scheduler will open if nothing changes: when, for which period, and for how much. */
export interface UpcomingInvoice {
  readonly at: Instant
  readonly periodEnd: Instant
  /** What it bills after credit; 0 when the credit pays the period (no invoice opens then). */
  readonly amount: Amount
}

/**
 * The next `count` renewals as the scheduler would open them (plan-changes.ts planChangesDue): the
 * stored change applied from the next one (re-anchored there when the cycle changes), the credit
 * taken off in turn, a rest below the smallest checkout carried to the following one. Empty while
 * nothing is scheduled: cancelled, paused, ending at period end, or waiting on an unpaid invoice.
 */
export const upcomingInvoices = (subscription: Subscription, count: number): ReadonlyArray<UpcomingInvoice> => {
  const first = subscription.nextBillingAt
  if (first === null || subscription.status === "cancelled" || subscription.pausedAt !== null || subscription.cancelAtPeriodEnd) return []
  const amount = subscription.pendingAmount ?? subscription.amount
  const cycle = subscription.pendingCycle ?? subscription.billingCycle
  const anchor = cycle !== subscription.billingCycle ? first : subscription.billingAnchor ?? subscription.startsAt ?? subscription.createdAt
  const start = first < anchor ? 0 : periodIndexAt(anchor, cycle, first)
  const upcoming: Array<UpcomingInvoice> = []
  let credit = subscription.credit
  for (let n = start; n < start + count; n++) {
    const applied = applyCredit(credit, amount)
    const carried = applied.billed > 0n && applied.billed < MINIMUM_CHARGE
    credit = carried ? Amount(-applied.billed) : applied.credit
    upcoming.push({ at: periodBoundary(anchor, cycle, n), periodEnd: periodBoundary(anchor, cycle, n + 1), amount: carried ? Amount(0n) : applied.billed })
  }
  return upcoming
}
