import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import type { NewRefund } from "../../core/refunds/refund.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { makeMerchant, newPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

export const refundCases = (it: StorageIt) => {
  it.effect("refund: round trip, one per ref_refund and payment, any number without one", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentRepository
      const refunds = yield* RefundRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const payment = yield* payments.insert(newPayment(merchant.id, { expiresAt: plusSeconds(at, 60) }), at)
      const refund = (refRefund: string | null): NewRefund => ({
        refundTrxId: unique("SANDBOX_RF"),
        paymentTrxId: payment.trxId,
        merchantId: merchant.id,
        environment: "sandbox",
        amount: units(10),
        currency: "USD",
        reason: "damaged ✗",
        refRefund,
        totalRefunded: units(10),
        remainingRefund: units(90)
      })
      const first = yield* refunds.insert(refund("rf-1"))
      expect(yield* refunds.findByReference(payment.trxId, "rf-1")).toEqual(Option.some(first))
      expect(first.createdAt).toBeGreaterThan(0n)

      const repeats = yield* Effect.all(Array.from({ length: 10 }, () => Effect.either(refunds.insert(refund("rf-1")))), {
        concurrency: "unbounded"
      })
      expect(repeats.every((r) => Either.isLeft(r) && r.left._tag === "RefundReferenceUsed")).toBe(true)

      yield* refunds.insert(refund(null))
      yield* refunds.insert(refund(null))
      const listed = yield* refunds.listForPayment(payment.trxId)
      expect(listed.length).toBe(3)
      expect(listed.filter((r) => r.refRefund === null).length).toBe(2)
      expect(yield* refunds.findByReference(payment.trxId, "rf-2")).toEqual(Option.none())
    }))
}
