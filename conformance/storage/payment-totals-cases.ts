import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Amount, MAX_AMOUNT } from "../../core/money/amount.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { makeMerchant, newPayment, paidPayment, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

/** The merchant dashboard's takings: successful payments per currency since a moment, summed exactly by the store. */
export const paymentTotalsCases = (it: StorageIt) => {
  it.effect("payment totals: the scope's successful payments paid at or after `since`, per currency, exactly", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const since = yield* now
      const before = plusSeconds(since, -100)
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, 10) }, { amount: units(100) })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: since }, { amount: Amount(4_250_000_000n) })
      // Opened before `since` but paid after: it counts, the day it was paid.
      yield* paidPayment(merchant.id, { createdAt: before, paidAt: plusSeconds(since, 5) }, { amount: units(1) })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, 20) }, { amount: units(7), currency: "EUR" })
      // None of these counts: paid before `since`, another environment, another merchant, not paid.
      yield* paidPayment(merchant.id, { createdAt: before, paidAt: plusSeconds(since, -1) }, { amount: units(1_000) })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: since }, { amount: units(1_000), environment: "production" })
      yield* paidPayment((yield* makeMerchant()).id, { createdAt: since, paidAt: since }, { amount: units(1_000) })
      const declined = yield* payments.insert(newPayment(merchant.id, { expiresAt: plusSeconds(since, 60) }), since)
      yield* payments.complete(declined.trxId, { outcome: "declined", gatewayId: null }, since)
      yield* payments.insert(newPayment(merchant.id, { expiresAt: plusSeconds(since, 60) }), since)

      expect(yield* payments.successTotals({ merchantId: merchant.id, environment: "sandbox", since })).toEqual([
        { currency: "EUR", count: 1, volume: units(7) },
        { currency: "USD", count: 3, volume: Amount(units(101) + 4_250_000_000n) }
      ])
      expect(yield* payments.successTotals({ merchantId: merchant.id, environment: "sandbox", since: plusSeconds(since, 11) })).toEqual([
        { currency: "EUR", count: 1, volume: units(7) }
      ])
      expect(yield* payments.successTotals({ merchantId: merchant.id, environment: "production", since: plusSeconds(since, 1) })).toEqual([])
    }))

  it.effect("payment totals: ten of the largest payments sum past a BIGINT and still come back exact", () =>
    Effect.gen(function*() {
      const merchant = yield* makeMerchant()
      const at = yield* now
      for (let i = 0; i < 10; i++) yield* paidPayment(merchant.id, { createdAt: at, paidAt: at }, { amount: MAX_AMOUNT })
      const totals = yield* (yield* PaymentRepository).successTotals({ merchantId: merchant.id, environment: "sandbox", since: at })
      expect(totals).toEqual([{ currency: "USD", count: 10, volume: 10n * MAX_AMOUNT }])
      expect(10n * MAX_AMOUNT > 2n ** 63n).toBe(true)
    }))

  it.effect("payment totals by day: per currency and whole day after `since`, the last second of a day in it, exactly", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const since = yield* now
      const day = 86_400
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: since }, { amount: units(5) })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, day - 1) }, { amount: Amount(1n) })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, 2 * day) }, { amount: MAX_AMOUNT })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, 2 * day + 60) }, { amount: MAX_AMOUNT })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, day) }, { amount: units(7), currency: "EUR" })
      // Not counted: paid before `since`, another environment, not paid.
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: plusSeconds(since, -1) }, { amount: units(1_000) })
      yield* paidPayment(merchant.id, { createdAt: since, paidAt: since }, { amount: units(1_000), environment: "production" })
      yield* payments.insert(newPayment(merchant.id, { expiresAt: plusSeconds(since, 60) }), since)
      expect(yield* payments.dailySuccessTotals({ merchantId: merchant.id, environment: "sandbox", since })).toEqual([
        { currency: "EUR", day: 1, count: 1, volume: units(7) },
        { currency: "USD", day: 0, count: 2, volume: Amount(units(5) + 1n) },
        { currency: "USD", day: 2, count: 2, volume: 2n * MAX_AMOUNT }
      ])
    }))
}
