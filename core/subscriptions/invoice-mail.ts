import * as Effect from "effect/Effect"
import type { InvoiceFacts } from "../mail/mail-kind.js"
import { toFixed8String } from "../money/format.js"
import { CheckoutLinks } from "../payments/checkout-links.js"
import { toSeconds } from "../shared/instant.js"
import type { Invoice, Subscription } from "./subscription.js"

/** Who a customer mail about the subscription goes to, and in which language. */
export const customerMailOf = (subscription: Subscription) => ({
  merchantId: subscription.merchantId,
  environment: subscription.environment,
  to: subscription.customerEmail,
  locale: subscription.locale
})

/**
 * What every mail about an invoice names, written in one place for every kind (issued, receipt,
 * reminder, failed charge). Amounts are the invoice's own: a proration or a credit bills another
 * amount than the subscription's.
 */
export const invoiceMailFacts = (subscription: Subscription, invoice: Invoice): InvoiceFacts => ({
  subscriptionId: subscription.id,
  invoiceId: invoice.id,
  invoiceReference: invoice.reference,
  invoiceNumber: invoice.number,
  description: subscription.description,
  amount: toFixed8String(invoice.amount),
  currency: invoice.currency
})

/** Where the customer pays the invoice: its hosted checkout while it is pending with one, else nowhere (null). */
export const invoicePayUrl = (invoice: Invoice) =>
  Effect.map(CheckoutLinks, (links) =>
    invoice.status === "pending" && invoice.trxId !== null && invoice.checkoutExpiresAt !== null
      ? links.linkFor(invoice.trxId, toSeconds(invoice.checkoutExpiresAt))
      : null)
