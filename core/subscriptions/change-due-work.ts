import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { enqueueMail } from "../mail/enqueue-mail.js"
import { toFixed8String } from "../money/format.js"
import { type Instant, toIsoString } from "../shared/instant.js"
import { latestInvoice } from "./invoices.js"
import type { ChangeDuePlan } from "./plan-changes.js"
import type { Subscription } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { moveSubscription } from "./wake.js"
import { customerMailOf } from "./invoice-mail.js"

/**
 * Carries out the due work of trials, pauses and credits (plan-changes.ts planChangesDue) for a
 * subscription whose row the caller holds locked, as carryOutDue does the contract's: the trial
 * notice, an automatic resume, a renewal wholly paid by proration credit (no invoice to open).
 */
export const carryOutChangeDue = (subscription: Subscription, plan: ChangeDuePlan, at: Instant) =>
  Effect.gen(function*() {
    const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
    const latest = yield* latestInvoice(subscription.id)
    switch (plan._tag) {
      case "TrialNotice":
        if (plan.send) {
          yield* enqueueSubscriptionEvent("subscription.trial_will_end", moved, latest)
          if (moved.trialEnd !== null) {
            yield* enqueueMail({
              ...customerMailOf(moved),
              kind: "trial_ending",
              facts: {
                subscriptionId: moved.id,
                description: moved.description,
                // The first invoice bills a change stored for it, if any.
                amount: toFixed8String(moved.pendingAmount ?? moved.amount),
                currency: moved.currency,
                trialEnd: toIsoString(moved.trialEnd)
              }
            })
          }
        }
        break
      case "Resume":
        yield* enqueueSubscriptionEvent("subscription.resumed", moved, latest)
        break
      case "RenewFromCredit":
        yield* enqueueSubscriptionEvent("subscription.renewed", moved, latest)
        break
    }
    return { outcome: "none" as const, subscription: moved, invoice: undefined }
  })
