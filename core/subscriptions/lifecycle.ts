import type { Instant } from "../shared/instant.js"
import type { Amount } from "../money/amount.js"
import { periodAt, periodIndexAt } from "./billing-calendar.js"
import { type ChangeDuePlan, planChangesDue } from "./plan-changes.js"
import { type DunningDuePlan, endDunning, planDunningDue } from "./dunning-plan.js"
import { type Invoice, type Subscription, type SubscriptionChange, SubscriptionTransitionRefused } from "./subscription.js"

/**
 * The subscription state machine of spec 3.2, pure: each function takes the subscription as stored
 * (and the moment) and answers what must happen, or why it may not. The use cases carry the answers
 * out in one transaction under the subscription's row lock; nothing here reads or writes.
 *
 * Scheduling rule: `next_billing_at` is set only while the scheduler has work for the subscription:
 * a future start, or the end of an active paid period (where it renews, or ends an at-period-end
 * cancellation). Pending first invoices and past_due subscriptions wait for a payment or a renew.
 */

export interface Period {
  readonly start: Instant
  readonly end: Instant
}

/**
 * The billing anchor: the start of the first period (starts_at, or the creation time when immediate),
 * unless a trial or a cycle change moved it (billingAnchor, plan-changes.ts).
 */
export const anchorOf = (subscription: Subscription): Instant => subscription.billingAnchor ?? subscription.startsAt ?? subscription.createdAt

/** The period that needs paying now: the first one, or the one after the paid period. */
export const duePeriod = (subscription: Subscription): Period => {
  const anchor = anchorOf(subscription)
  const paidEnd = subscription.currentPeriodEnd
  return periodAt(anchor, subscription.billingCycle, paidEnd === null ? 0 : periodIndexAt(anchor, subscription.billingCycle, paidEnd))
}

const refused = (subscription: Subscription, action: string, message: string) =>
  new SubscriptionTransitionRefused({ status: subscription.status, action, message })

const CANCELLED_MESSAGE = "This subscription is cancelled; create a new subscription to bill again."

/** An invoice still payable at `at`: pending, with a checkout that has not expired. */
export const isOpen = (invoice: Invoice, at: Instant): boolean =>
  invoice.status === "pending" && invoice.checkoutExpiresAt !== null && invoice.checkoutExpiresAt > at

export type CancelPlan =
  | { readonly _tag: "AtPeriodEnd"; readonly change: SubscriptionChange }
  | { readonly _tag: "Now"; readonly change: SubscriptionChange }

/**
 * POST cancel. `at_period_end` keeps an active subscription active until its paid period ends
 * (the scheduler then cancels it); a subscription with no paid period running (pending, past_due)
 * has nothing to wait for, so it is cancelled now either way. Immediate cancels void open invoices.
 */
export const planCancel = (subscription: Subscription, atPeriodEnd: boolean, at: Instant): CancelPlan | SubscriptionTransitionRefused => {
  if (subscription.status === "cancelled") return refused(subscription, "cancel", CANCELLED_MESSAGE)
  if (atPeriodEnd && subscription.status === "active") {
    return { _tag: "AtPeriodEnd", change: { cancelAtPeriodEnd: true } }
  }
  return { _tag: "Now", change: { status: "cancelled", cancelledAt: at, nextBillingAt: null, ...endDunning(subscription) } }
}

/** `billed`: the invoice's amount when it is not the subscription's (a stored change, a credit). */
export type DuePlan =
  | { readonly _tag: "Start"; readonly period: Period; readonly change: SubscriptionChange; readonly billed?: Amount }
  | { readonly _tag: "Renew"; readonly period: Period; readonly change: SubscriptionChange; readonly billed?: Amount }
  | { readonly _tag: "EndAtPeriodEnd"; readonly change: SubscriptionChange }
  | DunningDuePlan
  | { readonly _tag: "NotDue" }
  | ChangeDuePlan

/**
 * What the scheduler does with a subscription at `at` (spec 4.10): a future start that arrived gets
 * its first invoice; an active period that ended either ends an at-period-end cancellation or gets
 * the next period's invoice and falls past_due until that invoice is paid.
 */
export const planDue = (subscription: Subscription, at: Instant): DuePlan => {
  const dunning = planDunningDue(subscription, at)
  if (dunning !== undefined) return dunning
  return planChangesDue(subscription, at, planContractDue(subscription, at))
}

const planContractDue = (subscription: Subscription, at: Instant): DuePlan => {
  const due = subscription.nextBillingAt
  if (due === null || due > at) return { _tag: "NotDue" }
  switch (subscription.status) {
    case "pending":
      return { _tag: "Start", period: duePeriod(subscription), change: { nextBillingAt: null } }
    case "active":
      return subscription.cancelAtPeriodEnd
        ? { _tag: "EndAtPeriodEnd", change: { status: "cancelled", cancelledAt: subscription.currentPeriodEnd ?? at, nextBillingAt: null } }
        : { _tag: "Renew", period: duePeriod(subscription), change: { status: "past_due", nextBillingAt: null } }
    default:
      return { _tag: "NotDue" }
  }
}

export type RenewPlan =
  | { readonly _tag: "ReturnOpen"; readonly invoice: Invoice }
  | { readonly _tag: "NewInvoice"; readonly period: Period; readonly retire: Invoice | undefined }
  | { readonly _tag: "RunDue"; readonly plan: Extract<DuePlan, { readonly _tag: "Start" | "Renew" }> }

/**
 * POST renew (spec 4.9): the open checkout of the period that needs paying, or a fresh one when
 * there is none (expired, failed) or `force_new` asks for it (the open one is then retired first,
 * so a subscription never has two payable invoices). An active subscription renews only once its
 * period is due and the scheduler has not yet run for it; never early (409). Likewise a future start
 * that has arrived is started as the scheduler would (clearing next_billing_at), never beside it.
 */
export const planRenew = (
  subscription: Subscription,
  latest: Invoice | undefined,
  forceNew: boolean,
  at: Instant
): RenewPlan | SubscriptionTransitionRefused => {
  switch (subscription.status) {
    case "cancelled":
      return refused(subscription, "renew", CANCELLED_MESSAGE)
    case "active": {
      const due = planDue(subscription, at)
      if (due._tag === "Renew") return { _tag: "RunDue", plan: due }
      return refused(subscription, "renew", due._tag === "EndAtPeriodEnd"
        ? "This subscription is cancelled at the end of its period and cannot renew."
        : "Active subscriptions cannot renew early: the current period is paid.")
    }
    case "pending":
    case "past_due": {
      if (subscription.status === "pending" && subscription.nextBillingAt !== null) {
        const due = planDue(subscription, at)
        if (due._tag === "Start") return { _tag: "RunDue", plan: due }
        return refused(subscription, "renew", "This subscription has not started; its first invoice is created at starts_at.")
      }
      const pending = latest !== undefined && latest.status === "pending" ? latest : undefined
      if (pending !== undefined && isOpen(pending, at) && !forceNew) return { _tag: "ReturnOpen", invoice: pending }
      return { _tag: "NewInvoice", period: duePeriod(subscription), retire: pending }
    }
  }
}

export type PaidPlan = { readonly event: "subscription.activated" | "subscription.renewed"; readonly change: SubscriptionChange }

/**
 * A verified completed payment of an invoice (spec 3.2): pending -> active (the access period starts),
 * past_due -> active (the period is extended). The paid period is the invoice's own, so a late
 * payment never shifts the billing anchor. A cancelled subscription has no payable invoice: refused.
 */
export const planPaid = (subscription: Subscription, invoice: Invoice): PaidPlan | SubscriptionTransitionRefused => {
  if (subscription.status === "cancelled") return refused(subscription, "pay", CANCELLED_MESSAGE)
  const start = invoice.periodStart ?? duePeriod(subscription).start
  const end = invoice.periodEnd ?? duePeriod(subscription).end
  // A period already paid stays paid: paying an older invoice late never shortens access.
  const extends_ = subscription.currentPeriodEnd === null || end > subscription.currentPeriodEnd
  return {
    event: subscription.status === "pending" ? "subscription.activated" : "subscription.renewed",
    change: {
      // A proration invoice of a period already paid does not pay the renewal a past_due one awaits.
      status: extends_ || subscription.status !== "past_due" ? "active" : "past_due",
      // A payment that recovers the renewal stops its dunning campaign, if any.
      ...(extends_ || subscription.status !== "past_due" ? endDunning(subscription) : {}),
      ...(extends_ ? { currentPeriodStart: start, currentPeriodEnd: end, nextBillingAt: end } : {})
    }
  }
}
