import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { toFixed8String } from "../money/format.js"
import { finishPayment } from "../payments/finish-payment.js"
import { initiatePayment } from "../payments/initiate-payment.js"
import { enqueueMail } from "../mail/enqueue-mail.js"
import { type Instant, toIsoString } from "../shared/instant.js"
import { Ids } from "../signing/random-ids.js"
import { customerMailOf, invoiceMailFacts } from "./invoice-mail.js"
import type { Period } from "./lifecycle.js"
import type { Invoice, Subscription } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"

/**
 * Opens the invoice for `period`: a hosted checkout begun exactly as any payment is (same gateways,
 * fees and link rules, limited to the subscription's methods), whose ref_trx is the invoice
 * reference, then the invoice row naming it. Call inside the transaction holding the subscription.
 */
export const openInvoice = (subscription: Subscription, period: Period, sequence: number) =>
  Effect.gen(function*() {
    const id = yield* (yield* Ids).uuid
    const reference = `INV-${id}`
    const initiated = yield* initiatePayment({ merchant: { id: subscription.merchantId }, environment: subscription.environment }, {
      amount: { kind: "string", value: toFixed8String(subscription.amount) },
      currency: subscription.currency,
      refTrx: reference,
      successRedirect: subscription.successRedirect,
      cancelRedirect: subscription.cancelRedirect,
      ipnUrl: subscription.ipnUrl,
      description: subscription.description,
      customerName: subscription.customerName,
      customerEmail: subscription.customerEmail,
      keywords: [],
      gatewayCodes: subscription.allowPaymentMethods,
      invoiceId: id
    })
    const invoice = yield* (yield* SubscriptionRepository).insertInvoice({
      id,
      subscriptionId: subscription.id,
      sequence,
      reference,
      status: "pending",
      amount: subscription.amount,
      currency: subscription.currency,
      trxId: initiated.payment.trxId,
      periodStart: period.start,
      periodEnd: period.end,
      checkoutExpiresAt: initiated.payment.expiresAt,
      paidAt: null
    })
    yield* enqueueMail({
      ...customerMailOf(subscription),
      kind: "invoice_issued",
      facts: {
        ...invoiceMailFacts(subscription, invoice),
        periodStart: toIsoString(period.start),
        periodEnd: toIsoString(period.end),
        payUrl: initiated.paymentUrl,
        dueAt: initiated.payment.expiresAt === null ? null : toIsoString(initiated.payment.expiresAt)
      }
    })
    return invoice
  })

/**
 * Takes a pending invoice out of play: `expired` when its checkout already ran out, else `void`; its
 * payment ends with it (expired or cancelled), so its link answers 410 and it can never complete.
 */
export const retireInvoice = (invoice: Invoice, at: Instant) =>
  Effect.gen(function*() {
    const lapsed = invoice.checkoutExpiresAt !== null && invoice.checkoutExpiresAt <= at
    const retired = yield* (yield* SubscriptionRepository).updateInvoice(invoice.id, ["pending"], { status: lapsed ? "expired" : "void" }, at)
    if (Option.isNone(retired)) return
    if (invoice.trxId !== null) {
      yield* finishPayment(invoice.trxId, { outcome: lapsed ? "expired" : "cancelled", gatewayId: null }).pipe(
        Effect.catchTag("PaymentAlreadyFinal", () => Effect.void),
        Effect.catchTag("PaymentNotFound", (error) => Effect.die(error))
      )
    }
  })

/** Retires the subscription's pending invoices (by construction at most one). */
export const retirePendingInvoices = (subscriptionId: string, at: Instant) =>
  Effect.gen(function*() {
    const recent = yield* (yield* SubscriptionRepository).latestInvoices(subscriptionId, 20)
    yield* Effect.forEach(recent.filter((invoice) => invoice.status === "pending"), (invoice) => retireInvoice(invoice, at), { discard: true })
  })

/** The subscription's newest invoice, if any. */
export const latestInvoice = (subscriptionId: string) =>
  Effect.map(Effect.flatMap(SubscriptionRepository, (repo) => repo.latestInvoices(subscriptionId, 1)), (list) => list[0])

/** Whether a payment belongs to an invoice that was voided (its link then answers 410). */
export const settlesVoidedInvoice = (payment: { readonly invoiceId: string | null }) =>
  payment.invoiceId === null
    ? Effect.succeed(false)
    : Effect.map(
      Effect.flatMap(SubscriptionRepository, (repo) => repo.findInvoiceById(payment.invoiceId!)),
      (invoice) => Option.isSome(invoice) && invoice.value.status === "void"
    )
