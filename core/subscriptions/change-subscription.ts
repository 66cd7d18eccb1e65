import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { carryOutDue } from "./due-work.js"
import { latestInvoice, openInvoice, retireInvoice, retirePendingInvoices } from "./invoices.js"
import { planCancel, planRenew } from "./lifecycle.js"
import { type Subscription, SubscriptionTransitionRefused } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { scopedSubscription } from "./subscription-queries.js"
import { moveSubscription } from "./wake.js"

/** A lifecycle change: in one transaction, under the subscription's row lock, decided by lifecycle.ts. */
const locked = <A, E, R>(caller: MerchantScope, id: string, change: (subscription: Subscription) => Effect.Effect<A, E, R>) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.flatMap(scopedSubscription(caller, id, true), change)))

/**
 * Spec 4.8. At period end: the subscription stays active with `cancel_at_period_end` until its paid
 * period ends, then the scheduler cancels it. Now: cancelled at once, every pending invoice voided
 * (its link answers 410, its payment can no longer complete), and `subscription.cancelled` sent.
 */
export const cancelSubscription = (caller: MerchantScope, id: string, atPeriodEnd: boolean) =>
  locked(caller, id, (subscription) =>
    Effect.gen(function*() {
      const at = yield* now
      const plan = planCancel(subscription, atPeriodEnd, at)
      if (plan instanceof SubscriptionTransitionRefused) return yield* plan
      if (plan._tag === "Now") yield* retirePendingInvoices(subscription.id, at)
      const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
      const latest = yield* latestInvoice(subscription.id)
      if (plan._tag === "Now") yield* enqueueSubscriptionEvent("subscription.cancelled", moved, latest)
      return { subscription: moved, latest }
    }))

/**
 * Spec 4.9: the open checkout of the period that needs paying, or a new one (after expiry or
 * failure, or when `force_new` retires the open one). An active subscription whose period is due
 * and not yet processed is renewed as the scheduler would; otherwise active refuses (409).
 */
export const renewSubscription = (caller: MerchantScope, id: string, forceNew: boolean) =>
  locked(caller, id, (subscription) =>
    Effect.gen(function*() {
      const at = yield* now
      const latest = yield* latestInvoice(subscription.id)
      const plan = planRenew(subscription, latest, forceNew, at)
      if (plan instanceof SubscriptionTransitionRefused) return yield* plan
      switch (plan._tag) {
        case "ReturnOpen":
          return { subscription, latest: plan.invoice }
        case "RunDue": {
          const done = yield* carryOutDue(subscription, plan.plan, at, false)
          return { subscription: done.subscription, latest: done.invoice ?? (yield* latestInvoice(subscription.id)) }
        }
        case "NewInvoice": {
          if (plan.retire !== undefined) yield* retireInvoice(plan.retire, at)
          // The subscription itself does not move: a new checkout for the same period.
          const invoice = yield* openInvoice(subscription, plan.period, (latest?.sequence ?? 0) + 1)
          yield* enqueueSubscriptionEvent("invoice.created", subscription, invoice, invoice)
          return { subscription, latest: invoice }
        }
      }
    }))
