import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { atomsPerMinorUnit } from "../money/amount.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import type { AmountInput } from "../money/parse.js"
import { checkoutTerms } from "../payments/initiate-payment.js"
import { type Instant, now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { latestInvoice, openInvoice } from "./invoices.js"
import { MINIMUM_CHARGE, planPause, planResume, planUpdate, type Proration } from "./plan-changes.js"
import { type BillingCycle, type Subscription, SubscriptionTransitionRefused } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { scopedSubscription } from "./subscription-queries.js"
import { moveSubscription } from "./wake.js"

/** A change: in one transaction, under the subscription's row lock, decided by plan-changes.ts. */
const locked = <A, E, R>(caller: MerchantScope, id: string, change: (subscription: Subscription) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.flatMap(scopedSubscription(caller, id, true), change)))

export interface UpdateSubscriptionRequest {
  readonly amount: AmountInput | undefined
  readonly billingCycle: BillingCycle | undefined
  readonly proration: Proration
}

/**
 * POST update (issue 36): a new amount (checked as create's: the currency's terms, at least 1, its
 * digits) and/or billing cycle, prorated as asked (plan-changes.ts planUpdate). A net charge opens a
 * proration invoice now, through the same checkout path as every invoice; `subscription.updated`
 * is sent, and `invoice.created` for that invoice.
 */
export const updateSubscription = (caller: MerchantScope, id: string, request: UpdateSubscriptionRequest) =>
  locked(caller, id, (subscription) =>
    Effect.gen(function*() {
      if (request.amount === undefined && request.billingCycle === undefined) {
        return yield* ValidationFailed.field("amount", "Give a payment amount, a billing cycle, or both.")
      }
      if (subscription.status === "cancelled") {
        return yield* new SubscriptionTransitionRefused({
          status: subscription.status,
          action: "update",
          message: "This subscription is cancelled; create a new subscription to bill again."
        })
      }
      const at = yield* now
      const amount = request.amount === undefined
        ? undefined
        : (yield* checkoutTerms({ merchant: { id: subscription.merchantId }, environment: subscription.environment }, subscription.currency, request.amount)).amount
      const minorUnit = atomsPerMinorUnit(yield* exponentOfHeld(subscription.currency))
      const plan = planUpdate(subscription, { amount, billingCycle: request.billingCycle, proration: request.proration }, at, minorUnit, MINIMUM_CHARGE)
      if (plan === undefined) {
        return yield* ValidationFailed.field(
          request.amount !== undefined ? "amount" : "billingCycle",
          "This update changes nothing: the subscription already has this amount and billing cycle."
        )
      }
      if (plan instanceof SubscriptionTransitionRefused) return yield* plan
      const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
      const previous = yield* latestInvoice(subscription.id)
      const invoice = plan.invoice === undefined
        ? undefined
        : yield* openInvoice({ ...moved, amount: plan.invoice.amount }, plan.invoice.period, (previous?.sequence ?? 0) + 1)
      const latest = invoice ?? previous
      yield* enqueueSubscriptionEvent("subscription.updated", moved, latest, invoice)
      if (invoice !== undefined) yield* enqueueSubscriptionEvent("invoice.created", moved, invoice, invoice)
      return { subscription: moved, latest }
    }))

/** POST pause (issue 36): see planPause; `resumes_at` must be in the future. */
export const pauseSubscription = (caller: MerchantScope, id: string, resumesAt: Instant | null) =>
  locked(caller, id, (subscription) =>
    Effect.gen(function*() {
      const at = yield* now
      if (resumesAt !== null && resumesAt <= at) {
        return yield* ValidationFailed.field("resumesAt", "The resumes at field must be in the future.")
      }
      const change = planPause(subscription, resumesAt, at)
      if (change instanceof SubscriptionTransitionRefused) return yield* change
      const moved = Option.getOrThrow(yield* moveSubscription(subscription, change, at))
      const latest = yield* latestInvoice(subscription.id)
      yield* enqueueSubscriptionEvent("subscription.paused", moved, latest)
      return { subscription: moved, latest }
    }))

/** POST resume (issue 36): see planResume. */
export const resumeSubscription = (caller: MerchantScope, id: string) =>
  locked(caller, id, (subscription) =>
    Effect.gen(function*() {
      const at = yield* now
      const change = planResume(subscription, at)
      if (change instanceof SubscriptionTransitionRefused) return yield* change
      const moved = Option.getOrThrow(yield* moveSubscription(subscription, change, at))
      const latest = yield* latestInvoice(subscription.id)
      yield* enqueueSubscriptionEvent("subscription.resumed", moved, latest)
      return { subscription: moved, latest }
    }))
