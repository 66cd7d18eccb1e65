import { Amount } from "../../money/amount.js"
import { MerchantId } from "../../shared/ids.js"
import type { Instant } from "../../shared/instant.js"
import { type Invoice, NO_PLAN_CHANGES, type Subscription } from "../subscription.js"

/**
 * One subscription for the pure tests of core/subscriptions: a monthly 10.00 USD plan anchored at
 * `at`, with nothing running (no period paid, no trial, no campaign, no saved method, no clock). Each test names only
 * what it is about; a field added to Subscription is given its default here, once.
 */
export const subscriptionAt = (at: Instant, fields: Partial<Subscription> = {}): Subscription => ({
  id: "sub-1", merchantId: MerchantId(1), environment: "sandbox", externalReference: "ext-1", status: "pending",
  billingCycle: "monthly", amount: Amount(1_000_000_000n), currency: "USD", customerEmail: "ann@example.com",
  customerName: null, description: null, successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/no",
  ipnUrl: "https://shop.example/ipn", allowPaymentMethods: [], metadata: {}, startsAt: at, currentPeriodStart: null,
  currentPeriodEnd: null, nextBillingAt: null, cancelAtPeriodEnd: false, cancelledAt: null, testClockId: null, locale: null, wakeAt: null,
  dunning: null, savedMethodId: null, chargeAt: null, chargeAttempts: 0, chargeClaim: null, ...NO_PLAN_CHANGES, createdAt: at, updatedAt: at,
  ...fields
})

/** One pending invoice of `sub-1` for [start, end), as subscriptionAt's. */
export const invoiceFor = (start: Instant, end: Instant, fields: Partial<Invoice> = {}): Invoice => ({
  id: "inv-1", subscriptionId: "sub-1", sequence: 1, reference: "INV-1", number: "INV-2028-000001", status: "pending",
  amount: Amount(1_000_000_000n), currency: "USD", trxId: "SANDBOX_1", periodStart: start, periodEnd: end,
  checkoutExpiresAt: null, paidAt: null, createdAt: start, updatedAt: start,
  ...fields
})
