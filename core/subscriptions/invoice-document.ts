import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toCurrencyString } from "../money/format.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { type Instant, toIsoString } from "../shared/instant.js"
import {
  type InvoiceDocumentFacts,
  type InvoiceDocumentKind,
  InvoiceDocuments,
  InvoiceNotFound,
  InvoiceNotPaid
} from "./invoice-documents.js"
import type { Invoice, Subscription } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { scopedSubscription } from "./subscription-queries.js"

const dateOf = (instant: Instant) => toIsoString(instant).slice(0, 10)

/** The document's facts, every amount written exactly in the currency's minor unit. */
export const invoiceDocumentFacts = (scope: MerchantScope, subscription: Subscription, invoice: Invoice) =>
  Effect.map(exponentOfHeld(invoice.currency), (exponent): InvoiceDocumentFacts => {
    const amount = toCurrencyString(invoice.amount, exponent)
    return {
      merchantName: scope.merchant.name,
      environment: subscription.environment,
      // Every invoice is numbered from 0029 on; the reference stands in should a store not number one.
      number: invoice.number ?? invoice.reference,
      reference: invoice.reference,
      issuedOn: dateOf(invoice.createdAt),
      customerName: subscription.customerName,
      customerEmail: subscription.customerEmail,
      period: invoice.periodStart === null || invoice.periodEnd === null
        ? null
        : `${dateOf(invoice.periodStart)} to ${dateOf(invoice.periodEnd)}`,
      lines: [{ description: subscription.description ?? `Subscription ${subscription.externalReference} (${subscription.billingCycle})`, amount }],
      total: amount,
      currency: invoice.currency,
      status: invoice.status,
      paidOn: invoice.paidAt === null ? null : dateOf(invoice.paidAt),
      paymentTrxId: invoice.status === "paid" ? invoice.trxId : null
    }
  })

/**
 * An invoice of one of the caller's subscriptions as a document: the invoice itself, or its payment
 * receipt once paid. Another merchant's, another environment's or another subscription's invoice is
 * not found, exactly as an unknown one. The API, the dashboard and the customer portal all call this.
 */
export const invoiceDocument = (scope: MerchantScope, subscriptionId: string, invoiceId: string, kind: InvoiceDocumentKind) =>
  Effect.gen(function*() {
    const subscription = yield* scopedSubscription(scope, subscriptionId, false)
    const found = yield* (yield* SubscriptionRepository).findInvoiceById(invoiceId)
    if (Option.isNone(found) || found.value.subscriptionId !== subscription.id) return yield* new InvoiceNotFound({ invoiceId })
    const invoice = found.value
    if (kind === "receipt" && invoice.status !== "paid") return yield* new InvoiceNotPaid({ invoiceId, status: invoice.status })
    const facts = yield* invoiceDocumentFacts(scope, subscription, invoice)
    const bytes = yield* (yield* InvoiceDocuments).render(kind, facts)
    return { bytes, filename: `${kind === "receipt" ? "receipt" : "invoice"}-${facts.number}.pdf`, facts }
  })
