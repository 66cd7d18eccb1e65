import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { Instant } from "../shared/instant.js"
import { type CurrencyTotal, type DailyTotal, PaymentRepository } from "./payment-repository.js"

export type { CurrencyTotal, DailyTotal }

/**
 * The dashboard's takings: per currency (in currency order), how many of the merchant's payments in
 * the scope's environment succeeded at or after `since`, and their gross amount. Counted from the
 * moment each was paid (completed_at), not opened: a checkout opened yesterday and paid today is
 * today's money, on the day it reached the wallet.
 */
export const paymentSummary = (scope: MerchantScope, range: { readonly since: Instant }) =>
  Effect.flatMap(PaymentRepository, (payments) =>
    payments.successTotals({ merchantId: scope.merchant.id, environment: scope.environment, since: range.since }))

/** The same takings day by day since `since` (a UTC midnight): each currency's days that took anything. */
export const dailyPaymentSummary = (scope: MerchantScope, range: { readonly since: Instant }) =>
  Effect.flatMap(PaymentRepository, (payments) =>
    payments.dailySuccessTotals({ merchantId: scope.merchant.id, environment: scope.environment, since: range.since }))
