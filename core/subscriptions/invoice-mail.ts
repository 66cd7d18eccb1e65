import * as Effect from "effect/Effect"
import type { InvoiceFacts } from "../mail/mail-kind.js"
import { toFixed8String } from "../money/format.js"
import { CheckoutLinks } from "../payments/checkout-links.js"
import { toSeconds } from "../shared/instant.js"
import type { Invoice, Subscription } from "./subscription.js"

/**
 * What every mail about an invoice names, and where the customer pays it: its hosted checkout while
 * the invoice is pending with a checkout, else nowhere (null). Amounts are the invoice's own (a
 * proration or credit bills another amount than the subscription's).
 */
export const invoiceMailFacts = (subscription: Subscription, invoice: Invoice) =>
  Effect.map(CheckoutLinks, (links): InvoiceFacts & { readonly payUrl: string | null } => ({
    subscriptionId: subscription.id,
    invoiceId: invoice.id,
    invoiceReference: invoice.reference,
    invoiceNumber: invoice.number,
    description: subscription.description,
    amount: toFixed8String(invoice.amount),
    currency: invoice.currency,
    payUrl: invoice.status === "pending" && invoice.trxId !== null && invoice.checkoutExpiresAt !== null
      ? links.linkFor(invoice.trxId, toSeconds(invoice.checkoutExpiresAt))
      : null
  }))
