import { ATOMS_PER_UNIT, Amount } from "../money/amount.js"
import { Instant } from "../shared/instant.js"
import { periodAt, periodBoundary, periodIndexAt } from "./billing-calendar.js"
import { applyCredit, prorateAmountChange, prorateCycleChange, settleNet } from "./proration.js"
import {
  type BillingCycle,
  type Subscription,
  type SubscriptionChange,
  SubscriptionTransitionRefused
} from "./subscription.js"

/**
 * Trials, plan changes and pauses (issue 36, item 4), pure: each function takes the subscription as
 * stored and the moment, and answers what must change (and which invoice to open), or why not. The
 * use cases (subscription-changes.ts, change-due-work.ts) carry the answers out under the row lock.
 * Statuses stay the contract's four: a trial is `active` with `trial_end`, a pause `active` with
 * `paused_at` (docs/decisions.md).
 */

const MICROS_PER_DAY = 86_400_000_000n
/** The smallest checkout any invoice may open (checkoutTerms: at least 1 of the currency). */
export const MINIMUM_CHARGE = Amount(ATOMS_PER_UNIT)
export const MAX_TRIAL_DAYS = 730
/** `subscription.trial_will_end` is sent this long before the trial ends (as Stripe does). */
export const TRIAL_NOTICE_DAYS = 3

interface Span {
  readonly start: Instant
  readonly end: Instant
}

const refused = (subscription: Subscription, action: string, message: string) =>
  new SubscriptionTransitionRefused({ status: subscription.status, action, message })

const CANCELLED_MESSAGE = "This subscription is cancelled; create a new subscription to bill again."

/**
 * The lifecycle fields of a subscription created at `at` with a trial of `days`: active now, the
 * trial as its current (free) period, the first invoice at the trial's end, which is also the billing
 * anchor, and the trial notice three days before it (at once for a shorter trial).
 */
export const trialStart = (days: number, at: Instant) => {
  const trialEnd = Instant(at + BigInt(days) * MICROS_PER_DAY)
  const notice = Instant(trialEnd - BigInt(TRIAL_NOTICE_DAYS) * MICROS_PER_DAY)
  return {
    status: "active" as const,
    trialEnd,
    trialNoticeAt: notice > at ? notice : at,
    billingAnchor: trialEnd,
    currentPeriodStart: at,
    currentPeriodEnd: trialEnd,
    nextBillingAt: trialEnd
  }
}

/** Whether the subscription is inside its free trial at `at`. */
export const inTrial = (subscription: Subscription, at: Instant): boolean =>
  subscription.trialEnd !== null && at < subscription.trialEnd

/** The paid period running at `at`, if any: prorations credit what is left of it. */
const runningPaidPeriod = (subscription: Subscription, at: Instant): Span | undefined =>
  subscription.status === "active" && !inTrial(subscription, at) && subscription.currentPeriodStart !== null &&
    subscription.currentPeriodEnd !== null && subscription.currentPeriodStart <= at && at < subscription.currentPeriodEnd
    ? { start: subscription.currentPeriodStart, end: subscription.currentPeriodEnd }
    : undefined

export type Proration = "now" | "next_period" | "none"

export interface UpdateRequest {
  readonly amount: Amount | undefined
  readonly billingCycle: BillingCycle | undefined
  readonly proration: Proration
}

export interface UpdatePlan {
  readonly change: SubscriptionChange
  /** A proration invoice to open now: its amount (credit already taken off) and period. */
  readonly invoice: { readonly amount: Amount; readonly period: Span } | undefined
}

/**
 * POST update. `next_period` stores the change for the next renewal; `none` changes the amount for
 * every invoice opened from now, with no credit or charge; `now` prorates against the paid period
 * running (proration.ts): an amount change credits the unused part at the old price and charges it at
 * the new one, a cycle change re-anchors the periods at `at` and charges a whole new period less the
 * unused part. With nothing paid running (a trial, pending, past_due) there is nothing to prorate: the
 * amount applies from the next invoice. A cycle change that cannot start now waits for the next
 * renewal, where the periods re-anchor (a cycle only changes on a boundary or with `now`). A net
 * charge below `minimumCharge` (the smallest checkout) is carried onto the next invoice instead.
 * `undefined` when the request changes nothing.
 */
export const planUpdate = (
  subscription: Subscription,
  request: UpdateRequest,
  at: Instant,
  minorUnit: bigint,
  minimumCharge: Amount
): UpdatePlan | SubscriptionTransitionRefused | undefined => {
  if (subscription.status === "cancelled") return refused(subscription, "update", CANCELLED_MESSAGE)
  const amount = request.amount ?? subscription.amount
  const cycle = request.billingCycle ?? subscription.billingCycle
  const amountChanges = amount !== subscription.amount
  const cycleChanges = cycle !== subscription.billingCycle
  if (!amountChanges && !cycleChanges && subscription.pendingAmount === null && subscription.pendingCycle === null) return undefined
  // The request's word replaces any change stored earlier for the same field.
  const pending = {
    pendingAmount: request.amount !== undefined ? null : subscription.pendingAmount,
    pendingCycle: request.billingCycle !== undefined ? null : subscription.pendingCycle
  }
  if (request.proration === "next_period") {
    return {
      change: {
        pendingAmount: amountChanges ? amount : pending.pendingAmount,
        pendingCycle: cycleChanges ? cycle : pending.pendingCycle
      },
      invoice: undefined
    }
  }
  const period = request.proration === "now" ? runningPaidPeriod(subscription, at) : undefined
  if (period === undefined) {
    // Nothing to prorate: the amount from the next invoice; a cycle during a trial counts from its end,
    // otherwise it waits for the next boundary.
    const cycleNow = cycleChanges && inTrial(subscription, at)
    return {
      change: {
        ...pending,
        amount,
        ...(cycleNow ? { billingCycle: cycle } : {}),
        ...(cycleChanges && !cycleNow ? { pendingCycle: cycle } : {})
      },
      invoice: undefined
    }
  }
  if (!cycleChanges) {
    const { net } = prorateAmountChange({ oldAmount: subscription.amount, newAmount: amount, period, at, minorUnit })
    const settled = settleNet(subscription.credit, net, minimumCharge)
    return {
      change: { ...pending, amount, credit: settled.credit },
      invoice: settled.billed > 0n ? { amount: settled.billed, period } : undefined
    }
  }
  const { net } = prorateCycleChange({ oldAmount: subscription.amount, newAmount: amount, period, at, minorUnit })
  const settled = settleNet(subscription.credit, net, minimumCharge)
  const fresh = periodAt(at, cycle, 0)
  return {
    change: {
      pendingAmount: null,
      pendingCycle: null,
      amount,
      billingCycle: cycle,
      billingAnchor: at,
      currentPeriodStart: fresh.start,
      currentPeriodEnd: fresh.end,
      nextBillingAt: fresh.end,
      credit: settled.credit
    },
    invoice: settled.billed > 0n ? { amount: settled.billed, period: fresh } : undefined
  }
}

/**
 * POST pause: only an active subscription (a pending or past_due one has an invoice to settle first).
 * The paid period runs to its end; no invoice opens while paused (next_billing_at is cleared, unless
 * an at-period-end cancellation still has to happen); an open proration invoice stays payable.
 */
export const planPause = (subscription: Subscription, resumesAt: Instant | null, at: Instant): SubscriptionChange | SubscriptionTransitionRefused => {
  if (subscription.status === "cancelled") return refused(subscription, "pause", CANCELLED_MESSAGE)
  if (subscription.pausedAt !== null) return refused(subscription, "pause", "This subscription is already paused; resume it first.")
  if (subscription.status !== "active") {
    return refused(subscription, "pause", `Only an active subscription can be paused; this one is ${subscription.status}: its invoice must be paid or the subscription cancelled.`)
  }
  return {
    pausedAt: at,
    resumesAt,
    nextBillingAt: subscription.cancelAtPeriodEnd ? subscription.nextBillingAt : null
  }
}

/** Where a subscription's periods are counted from. */
const anchorOf = (subscription: Subscription): Instant =>
  subscription.billingAnchor ?? subscription.startsAt ?? subscription.createdAt

/**
 * POST resume (or `resumes_at` arriving): billing resumes at the next period boundary, as Stripe
 * does. Resumed inside the paid period, nothing moves; resumed after it, the rest of the period
 * the resume falls in is not billed and the next invoice opens at its end.
 */
export const planResume = (subscription: Subscription, at: Instant): SubscriptionChange | SubscriptionTransitionRefused => {
  if (subscription.status === "cancelled") return refused(subscription, "resume", CANCELLED_MESSAGE)
  if (subscription.pausedAt === null) return refused(subscription, "resume", "This subscription is not paused.")
  const cleared = { pausedAt: null, resumesAt: null }
  if (subscription.cancelAtPeriodEnd) return cleared // its end is still scheduled
  const paidEnd = subscription.currentPeriodEnd
  if (paidEnd !== null && paidEnd > at) return { ...cleared, nextBillingAt: paidEnd }
  const anchor = anchorOf(subscription)
  if (at < anchor) return { ...cleared, nextBillingAt: anchor }
  const end = periodBoundary(anchor, subscription.billingCycle, periodIndexAt(anchor, subscription.billingCycle, at) + 1)
  return { ...cleared, currentPeriodStart: at, currentPeriodEnd: end, nextBillingAt: end }
}

/** The due work of trials, pauses and credits, beside the contract's (lifecycle.ts DuePlan). */
export type ChangeDuePlan =
  | { readonly _tag: "TrialNotice"; readonly change: SubscriptionChange; readonly send: boolean }
  | { readonly _tag: "Resume"; readonly change: SubscriptionChange }
  | { readonly _tag: "RenewFromCredit"; readonly period: Span; readonly change: SubscriptionChange }

/** The contract's due plans this file adjusts (structurally lifecycle.ts's). */
type BillingPlan = { readonly _tag: "Start" | "Renew"; readonly period: Span; readonly change: SubscriptionChange; readonly billed?: Amount }

const isDue = (time: Instant | null, at: Instant): time is Instant => time !== null && time <= at

/**
 * Before the contract's due work (lifecycle.ts planDue): a trial notice or a resume that has come,
 * whichever is earliest; then a renewal with the stored change applied (re-anchored at the period's
 * start when the cycle changes) and the credit taken off, a renewal wholly paid by credit extending
 * the period without an invoice (as does one whose rest is below the smallest checkout: the rest is
 * carried onto the next invoice). `base` is what the contract alone would do.
 */
export const planChangesDue = <P extends { readonly _tag: string }>(
  subscription: Subscription,
  at: Instant,
  base: P
): P | BillingPlan | ChangeDuePlan => {
  const notice = subscription.trialNoticeAt
  const resume = subscription.pausedAt !== null ? subscription.resumesAt : null
  const billing = subscription.nextBillingAt
  if (isDue(notice, at) && (billing === null || notice <= billing) && (resume === null || notice <= resume)) {
    // A paused trial is not about to bill: no notice then.
    return { _tag: "TrialNotice", change: { trialNoticeAt: null }, send: subscription.pausedAt === null }
  }
  if (isDue(resume, at) && (billing === null || resume <= billing)) {
    const change = planResume(subscription, at)
    if (!(change instanceof SubscriptionTransitionRefused)) return { _tag: "Resume", change }
  }
  if (base._tag !== "Start" && base._tag !== "Renew") return base
  const plan = base as unknown as BillingPlan
  if (subscription.pendingAmount === null && subscription.pendingCycle === null && subscription.credit === 0n) return plan
  const amount = subscription.pendingAmount ?? subscription.amount
  const cycle = subscription.pendingCycle ?? subscription.billingCycle
  const reanchor = cycle !== subscription.billingCycle
  const period = reanchor ? periodAt(plan.period.start, cycle, 0) : plan.period
  const terms: SubscriptionChange = {
    pendingAmount: null,
    pendingCycle: null,
    amount,
    ...(reanchor ? { billingCycle: cycle, billingAnchor: plan.period.start } : {})
  }
  const applied = applyCredit(subscription.credit, amount)
  // What the credit leaves below the smallest checkout is carried onto the next invoice (as settleNet does).
  const carried = applied.billed > 0n && applied.billed < MINIMUM_CHARGE
  const billed = carried ? Amount(0n) : applied.billed
  const credit = carried ? Amount(-applied.billed) : applied.credit
  if (billed === 0n) {
    return {
      _tag: "RenewFromCredit",
      period,
      change: { ...terms, credit, status: "active", currentPeriodStart: period.start, currentPeriodEnd: period.end, nextBillingAt: period.end }
    }
  }
  return { ...plan, period, billed, change: { ...plan.change, ...terms, credit } }
}

export const isChangeDuePlan = (plan: { readonly _tag: string }): plan is ChangeDuePlan =>
  plan._tag === "TrialNotice" || plan._tag === "Resume" || plan._tag === "RenewFromCredit"
