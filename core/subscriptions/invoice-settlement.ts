import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { PaymentSettlement } from "../payments/payment-settlement.js"
import type { Payment, PaymentOutcome } from "../payments/payment.js"
import { type Instant, now, toIsoString } from "../shared/instant.js"
import { enqueueMail } from "../mail/enqueue-mail.js"
import type { MailOutbox } from "../mail/mail-outbox.js"
import { countRecovery } from "./dunning.js"
import { invoiceMailFacts } from "./invoice-mail.js"
import { planPaid } from "./lifecycle.js"
import { type Subscription, SubscriptionTransitionRefused } from "./subscription.js"
import { enqueueSubscriptionEvent, SubscriptionEventBody } from "./subscription-events.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { moveSubscription } from "./wake.js"
import { onSubscriptionTime } from "./subscription-time.js"
import type { TestClockRepository } from "./test-clock.js"
import { CheckoutLinks } from "../payments/checkout-links.js"
import { Ids } from "../signing/random-ids.js"
import type { WebhookEndpointRepository } from "../webhooks/webhook-endpoint-repository.js"
import { WebhookOutbox } from "../webhooks/webhook-outbox.js"
import { EventLog } from "../webhooks/event-log.js"

/**
 * An invoice payment's end, in the payment's transaction: paid marks the invoice paid and activates
 * or extends the subscription (with its event); any failure leaves the invoice `expired`, to be
 * recovered by renew. An invoice already retired (void) is left alone: its payment was ended with
 * it, so the payment's own compare-and-set refuses this second end and the transaction rolls back.
 */
const settleInvoice = (payment: Payment, outcome: PaymentOutcome, at: Instant) =>
  Effect.gen(function*() {
    const repo = yield* SubscriptionRepository
    const found = yield* repo.findInvoiceById(payment.invoiceId!)
    if (Option.isNone(found)) return yield* Effect.dieMessage(`payment ${payment.trxId} names a missing invoice`)
    const subscription = Option.getOrThrow(yield* repo.findByIdForUpdate(found.value.subscriptionId))
    // A subscription on a test clock is paid at its clock's time, not at the payment's.
    yield* onSubscriptionTime(subscription)(Effect.flatMap(now, (clockAt) =>
      settleLocked(subscription, found.value.id, outcome, subscription.testClockId === null ? at : clockAt)))
  })

const settleLocked = (subscription: Subscription, invoiceId: string, outcome: PaymentOutcome, at: Instant) =>
  Effect.gen(function*() {
    const repo = yield* SubscriptionRepository
    // Re-read under the lock: a cancel or renew may have retired it since.
    const invoice = Option.getOrThrow(yield* repo.findInvoiceById(invoiceId))
    if (invoice.status !== "pending") return
    if (outcome !== "paid") {
      yield* repo.updateInvoice(invoice.id, ["pending"], { status: "expired" }, at)
      return
    }
    const plan = planPaid(subscription, invoice)
    if (plan instanceof SubscriptionTransitionRefused) return
    const paid = Option.getOrThrow(yield* repo.updateInvoice(invoice.id, ["pending"], { status: "paid", paidAt: at }, at))
    const moved = Option.getOrThrow(yield* moveSubscription(subscription, plan.change, at))
    yield* countRecovery(subscription)
    const latest = (yield* repo.latestInvoices(subscription.id, 1))[0]
    yield* enqueueSubscriptionEvent(plan.event, moved, latest, paid)
    yield* enqueueMail({
      merchantId: moved.merchantId,
      environment: moved.environment,
      to: moved.customerEmail,
      kind: "payment_receipt",
      facts: {
        ...invoiceMailFacts(moved, paid),
        paidAt: toIsoString(at),
        trxId: paid.trxId
      }
    })
    // Every paid invoice, hosted or charged off-session to a saved method.
    yield* enqueueSubscriptionEvent("invoice.paid", moved, latest, paid)
  })

/** Wires invoice settlement into the one path every payment ends by (finishPayment). */
export const layer = Layer.effect(
  PaymentSettlement,
  Effect.map(Effect.context<SubscriptionRepository | TestClockRepository | CheckoutLinks | Ids | WebhookOutbox | WebhookEndpointRepository | SubscriptionEventBody | MailOutbox | EventLog>(), (context) => ({
    settle: (payment: Payment, outcome: PaymentOutcome, at: Instant) =>
      payment.invoiceId === null ? Effect.void : Effect.provide(settleInvoice(payment, outcome, at), context)
  }))
)
