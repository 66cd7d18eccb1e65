import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { enqueueMail } from "../mail/enqueue-mail.js"
import { type Instant, toIsoString } from "../shared/instant.js"
import { dunningInvoicesLost, dunningInvoicesRecovered } from "../shared/metrics.js"
import { dayAfter, type DunningDuePlan } from "./dunning-plan.js"
import { customerMailOf, invoiceMailFacts, invoicePayUrl } from "./invoice-mail.js"
import { latestInvoice, openInvoice, retireInvoice, retirePendingInvoices } from "./invoices.js"
import { planRenew } from "./lifecycle.js"
import { type Invoice, type Subscription, SubscriptionTransitionRefused } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { moveSubscription } from "./wake.js"

/**
 * Carries out a dunning step (dunning-plan.ts) for a subscription whose row the caller holds locked.
 * Each step is an event: `invoice.reminder` (with a payable checkout), then `invoice.uncollectible`
 * at the grace period's end, followed by `subscription.cancelled` when the final action cancels.
 */

/**
 * The invoice a reminder sends the customer to, payable: the open checkout, or, as renew does, a
 * fresh one when it expired or failed (with its `invoice.created`). When no checkout can be opened
 * now (the currency or wallet was switched off since), the reminder still goes out with the newest
 * invoice, and why is logged: the customer can still be told, and a later renew may succeed.
 */
const payableInvoice = (subscription: Subscription, at: Instant) =>
  Effect.gen(function*() {
    const latest = yield* latestInvoice(subscription.id)
    const plan = planRenew(subscription, latest, false, at)
    if (plan instanceof SubscriptionTransitionRefused || plan._tag === "RunDue") return latest
    if (plan._tag === "ReturnOpen") return plan.invoice
    const forgiven = (reason: unknown) =>
      Effect.as(Effect.logWarning("dunning reminder: no fresh checkout opened", { subscription: subscription.id, reason }), latest)
    return yield* Effect.gen(function*() {
      if (plan.retire !== undefined) yield* retireInvoice(plan.retire, at)
      const invoice: Invoice = yield* openInvoice(subscription, plan.period, (latest?.sequence ?? 0) + 1)
      yield* enqueueSubscriptionEvent("invoice.created", subscription, invoice, invoice)
      return invoice
    }).pipe(Effect.catchTags({
      CurrencyNotEnabled: (error) => forgiven(error._tag),
      ReceiverWalletUnavailable: (error) => forgiven(error._tag),
      ValidationFailed: (error) => forgiven(error.errors)
    }))
  })

const remind = (subscription: Subscription, plan: Extract<DunningDuePlan, { readonly _tag: "DunningReminder" }>, at: Instant) =>
  Effect.gen(function*() {
    const invoice = yield* payableInvoice(subscription, at)
    const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
    yield* enqueueSubscriptionEvent("invoice.reminder", moved, invoice, invoice)
    if (invoice !== undefined) {
      const { dunning } = plan
      yield* enqueueMail({
        ...customerMailOf(moved),
        kind: "dunning_reminder",
        facts: {
          ...invoiceMailFacts(moved, invoice),
          payUrl: yield* invoicePayUrl(invoice),
          reminderNumber: plan.step,
          cancelsAt: dunning.finalAction === "cancel" ? toIsoString(dayAfter(dunning.startedAt, dunning.graceDays)) : null
        }
      })
    }
    return { outcome: "none" as const, subscription: moved, invoice }
  })

const finish = (subscription: Subscription, plan: Extract<DunningDuePlan, { readonly _tag: "DunningFinal" }>, at: Instant) =>
  Effect.gen(function*() {
    const unpaid = yield* latestInvoice(subscription.id)
    // Told first, while the subscription is still past_due and the invoice as dunning left it.
    yield* enqueueSubscriptionEvent("invoice.uncollectible", subscription, unpaid, unpaid)
    if (plan.action === "cancel") yield* retirePendingInvoices(subscription.id, at)
    const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
    yield* Metric.increment(Metric.tagged(dunningInvoicesLost, "environment", subscription.environment))
    if (plan.action === "cancel") {
      yield* enqueueSubscriptionEvent("subscription.cancelled", moved, yield* latestInvoice(subscription.id))
      return { outcome: "cancelled" as const, subscription: moved, invoice: undefined }
    }
    return { outcome: "none" as const, subscription: moved, invoice: undefined }
  })

/** One dunning step, dispatched from carryOutDue. */
export const carryOutDunning = (subscription: Subscription, plan: DunningDuePlan, at: Instant) =>
  plan._tag === "DunningReminder" ? remind(subscription, plan, at) : finish(subscription, plan, at)

/** A payment of an invoice under dunning recovered it: counted once, in the payment's transaction. */
export const countRecovery = (subscription: Subscription) =>
  subscription.dunning === null
    ? Effect.void
    : Metric.increment(Metric.tagged(dunningInvoicesRecovered, "environment", subscription.environment))
