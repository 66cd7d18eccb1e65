import { toFixed8String } from "../../../core/money/format.js"
import type { LinkFor } from "../../../core/payments/checkout-links.js"
import { type Instant, toIsoString, toSeconds } from "../../../core/shared/instant.js"
import type { SavedMethodFacts } from "../../../core/subscriptions/saved-methods.js"
import type { Invoice, Subscription } from "../../../core/subscriptions/subscription.js"

const iso = (instant: Instant | null): string | null => (instant === null ? null : toIsoString(instant))

/**
 * Spec 2.6 plus the invoice's own facts. The one shape of an invoice: API responses and webhook
 * payloads both render it here, so they cannot disagree. `payment_url` is the invoice's checkout
 * link (answering 410 once the invoice is void or its checkout expired).
 */
export const invoiceJson = (invoice: Invoice, linkFor: LinkFor) => ({
  id: invoice.id,
  reference: invoice.reference,
  sequence: invoice.sequence,
  status: invoice.status,
  trx_id: invoice.trxId,
  payment_url: invoice.trxId === null || invoice.checkoutExpiresAt === null
    ? null
    : linkFor(invoice.trxId, toSeconds(invoice.checkoutExpiresAt)),
  checkout_expires_at: iso(invoice.checkoutExpiresAt),
  amount: toFixed8String(invoice.amount),
  currency_code: invoice.currency,
  period_start: iso(invoice.periodStart),
  period_end: iso(invoice.periodEnd),
  paid_at: iso(invoice.paidAt),
  created_at: toIsoString(invoice.createdAt),
  // Added after the contract's fields, so their bytes stay as they were.
  number: invoice.number
})

/**
 * Trials, pauses, stored changes and credit (issue 36), each field only when set, so a subscription
 * without them reads byte for byte as the contract's.
 */
const planChangeJson = (subscription: Subscription) => ({
  ...(subscription.trialEnd === null ? {} : { trial_end: toIsoString(subscription.trialEnd) }),
  ...(subscription.pausedAt === null ? {} : { paused_at: toIsoString(subscription.pausedAt) }),
  ...(subscription.resumesAt === null ? {} : { resumes_at: toIsoString(subscription.resumesAt) }),
  ...(subscription.pendingAmount === null && subscription.pendingCycle === null ? {} : {
    pending_change: {
      ...(subscription.pendingAmount === null ? {} : { amount: toFixed8String(subscription.pendingAmount) }),
      ...(subscription.pendingCycle === null ? {} : { billing_cycle: subscription.pendingCycle })
    }
  }),
  ...(subscription.credit === 0n ? {} : { credit: toFixed8String(subscription.credit) })
})

/**
 * Spec 2.5 and the fields docs/decisions.md adds. `latest` is the newest invoice; `invoices`, when
 * given (retrieve), the newest twenty.
 */
export const subscriptionJson = (
  subscription: Subscription,
  latest: Invoice | undefined,
  linkFor: LinkFor,
  invoices?: ReadonlyArray<Invoice>,
  savedMethod?: SavedMethodFacts
) => ({
  id: subscription.id,
  external_reference: subscription.externalReference,
  environment: subscription.environment,
  status: subscription.status,
  billing_cycle: subscription.billingCycle,
  amount: toFixed8String(subscription.amount),
  currency_code: subscription.currency,
  customer_email: subscription.customerEmail,
  customer_name: subscription.customerName,
  description: subscription.description,
  metadata: subscription.metadata,
  allow_payment_methods: subscription.allowPaymentMethods,
  success_redirect: subscription.successRedirect,
  cancel_redirect: subscription.cancelRedirect,
  ipn_url: subscription.ipnUrl,
  starts_at: iso(subscription.startsAt),
  current_period_start: iso(subscription.currentPeriodStart),
  current_period_end: iso(subscription.currentPeriodEnd),
  next_billing_at: iso(subscription.nextBillingAt),
  cancel_at_period_end: subscription.cancelAtPeriodEnd,
  cancelled_at: iso(subscription.cancelledAt),
  created_at: toIsoString(subscription.createdAt),
  updated_at: toIsoString(subscription.updatedAt),
  latest_invoice: latest === undefined ? null : invoiceJson(latest, linkFor),
  // Only when set: a subscription on real time keeps the contract's shape byte for byte.
  ...(subscription.testClockId === null ? {} : { test_clock: subscription.testClockId }),
  // Likewise: a subscription created without a language keeps the contract's bytes.
  ...(subscription.locale === null ? {} : { locale: subscription.locale }),
  ...planChangeJson(subscription),
  ...(invoices === undefined ? {} : { invoices: invoices.map((invoice) => invoiceJson(invoice, linkFor)) }),
  // Additive, and only when set: a subscription without one reads exactly as the contract's.
  ...(savedMethod === undefined
    ? {}
    : { saved_payment_method: { brand: savedMethod.brand, last4: savedMethod.last4, exp_month: savedMethod.expMonth, exp_year: savedMethod.expYear } })
})
