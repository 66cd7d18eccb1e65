import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Instant } from "../shared/instant.js"
import { carryOutChangeDue } from "./change-due-work.js"
import { carryOutDunning } from "./dunning.js"
import { beginDunning } from "./dunning-start.js"
import { latestInvoice, openInvoice, retirePendingInvoices } from "./invoices.js"
import type { DuePlan } from "./lifecycle.js"
import { isChangeDuePlan } from "./plan-changes.js"
import type { Subscription } from "./subscription.js"
import { automaticRenewalChange } from "./renewal-charges.js"
import { enqueueSubscriptionEvent, enqueueSubscriptionEvents } from "./subscription-events.js"
import { moveSubscription } from "./wake.js"

/** What carrying out a due plan did, as the scheduler counts it. */
export type DueOutcome = "none" | "started" | "past_due" | "cancelled"

/**
 * Carries out a due plan (see planDue) for a subscription whose row the caller holds locked: ends an
 * at-period-end cancellation, or opens the period's invoice and moves the subscription. When the
 * invoice cannot be opened (the currency or wallet was switched off since), `lenient` (the
 * scheduler) still moves it, as a renewal that failed, and logs why; a renew call propagates the
 * error to its caller instead. The errors it forgives are raised by the checkout's terms before
 * anything is written, so forgiving them leaves no half-opened invoice behind.
 */
export const carryOutDue = (subscription: Subscription, plan: DuePlan, at: Instant, lenient: boolean) =>
  Effect.gen(function*() {
    if (plan._tag === "NotDue") return { outcome: "none" as DueOutcome, subscription, invoice: undefined }
    if (isChangeDuePlan(plan)) return yield* carryOutChangeDue(subscription, plan, at)
    if (plan._tag === "DunningReminder" || plan._tag === "DunningFinal") return yield* carryOutDunning(subscription, plan, at)
    if (plan._tag === "EndAtPeriodEnd") {
      yield* retirePendingInvoices(subscription.id, at)
      const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
      yield* enqueueSubscriptionEvent("subscription.cancelled", moved, yield* latestInvoice(subscription.id))
      return { outcome: "cancelled" as DueOutcome, subscription: moved, invoice: undefined }
    }
    const sequence = ((yield* latestInvoice(subscription.id))?.sequence ?? 0) + 1
    // A stored change or a credit bills another amount than the subscription's (plan-changes.ts).
    const opening = openInvoice(plan.billed === undefined ? subscription : { ...subscription, amount: plan.billed }, plan.period, sequence)
    const forgiven = (reason: unknown) =>
      Effect.as(Effect.logWarning("subscription invoice not opened", { subscription: subscription.id, reason }), undefined)
    const invoice = lenient
      ? yield* opening.pipe(Effect.catchTags({
        CurrencyNotEnabled: (error) => forgiven(error._tag),
        ReceiverWalletUnavailable: (error) => forgiven(error._tag),
        ValidationFailed: (error) => forgiven(error.errors)
      }))
      : yield* opening
    // With a saved method, it stays active while its charge runs (renewal-charges.ts); dunning waits for its retries.
    const automatic = invoice === undefined ? undefined : automaticRenewalChange(subscription, plan, at)
    // A renewal left to the hosted invoice begins dunning, counted from the day it fell due.
    const change = automatic ?? (plan._tag === "Renew"
      ? { ...plan.change, ...(yield* beginDunning(subscription, subscription.nextBillingAt ?? at)) }
      : plan.change)
    const moved = Option.getOrThrow(yield* moveSubscription(subscription, change, at))
    const latest = invoice ?? (yield* latestInvoice(subscription.id))
    // Both events of the renewal in one go: past_due first, then the invoice, as they always came.
    yield* enqueueSubscriptionEvents([
      ...(plan._tag === "Renew" && automatic === undefined ? [{ event: "subscription.past_due" as const, subscription: moved, latest, invoice }] : []),
      ...(invoice !== undefined ? [{ event: "invoice.created" as const, subscription: moved, latest: invoice, invoice }] : [])
    ])
    return { outcome: (plan._tag === "Start" ? "started" : "past_due") as DueOutcome, subscription: moved, invoice }
  })
