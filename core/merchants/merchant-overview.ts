import * as Effect from "effect/Effect"
import { type CurrencyTotal, type DailyTotal, dailyPaymentSummary, paymentSummary } from "../payments/payment-summary.js"
import { Instant, MICROS_PER_SECOND, now } from "../shared/instant.js"
import { merchantBalances } from "../wallets/merchant-balances.js"
import type { Wallet } from "../wallets/wallet.js"
import type { FailingTarget } from "../webhooks/delivery.js"
import { WebhookOutbox } from "../webhooks/webhook-outbox.js"
import type { MerchantScope } from "./merchant-scope.js"

const MICROS_PER_DAY = 86_400n * MICROS_PER_SECOND

/**
 * The start of the UTC day `at` falls in. UTC, not the merchant's zone: the kit stores no zone for a
 * merchant, and a day boundary every host and every page computes alike is one a figure can be checked against.
 */
export const utcMidnight = (at: Instant): Instant => Instant(at - (((at % MICROS_PER_DAY) + MICROS_PER_DAY) % MICROS_PER_DAY))

/** The days a volume chart shows: today and the 29 before it. */
export const CHART_DAYS = 30

const thirtyDaysFrom = (at: Instant): Instant => Instant(utcMidnight(at) - BigInt(CHART_DAYS - 1) * MICROS_PER_DAY)

export interface MerchantOverview {
  /** The scope's wallets, by currency code. */
  readonly balances: ReadonlyArray<Wallet>
  readonly today: ReadonlyArray<CurrencyTotal>
  readonly lastSevenDays: ReadonlyArray<CurrencyTotal>
  /** The last 30 UTC days, today the last: their first midnight, and each currency's days that took anything. */
  readonly lastThirtyDays: { readonly since: Instant; readonly days: ReadonlyArray<DailyTotal> }
  readonly failingDeliveries: {
    /** Receivers failing every attempt now, oldest failure first; a paused one holds its events back. */
    readonly targets: ReadonlyArray<FailingTarget>
    /** Events that used up their attempts: recoverEvents queues them again. */
    readonly failedEvents: number
  }
}

/**
 * The dashboard's first page, for one merchant in one environment: its balances, what it took today
 * (since UTC midnight on business time) and over the last seven days (the 168 hours before now), and
 * its webhooks in trouble: targets failing every attempt now, and events that failed for good and
 * wait for a recover.
 */
export const overview = (scope: MerchantScope) =>
  Effect.gen(function*() {
    const at = yield* now
    const outbox = yield* WebhookOutbox
    const figures: MerchantOverview = yield* Effect.all({
      balances: merchantBalances(scope),
      today: paymentSummary(scope, { since: utcMidnight(at) }),
      lastSevenDays: paymentSummary(scope, { since: Instant(at - 7n * MICROS_PER_DAY) }),
      lastThirtyDays: Effect.map(dailyPaymentSummary(scope, { since: thirtyDaysFrom(at) }), (days) => ({ since: thirtyDaysFrom(at), days })),
      failingDeliveries: Effect.all({
        targets: outbox.failingTargets({ merchantId: scope.merchant.id, environment: scope.environment }),
        failedEvents: outbox.failedCount(scope.merchant.id, scope.environment)
      })
    })
    return figures
  })
