import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Instant } from "../shared/instant.js"
import { latestInvoice } from "./invoices.js"
import type { ChangeDuePlan } from "./plan-changes.js"
import type { Subscription } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { moveSubscription } from "./wake.js"

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
        if (plan.send) yield* enqueueSubscriptionEvent("subscription.trial_will_end", moved, latest)
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
