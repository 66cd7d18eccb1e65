import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { leftFullyRefunded } from "./refund.js"
import { isFullyRefunded, planRefund, refundableAmount, remainingRefund } from "./refund-math.js"

const atoms = (max: bigint) => fc.bigInt({ min: 1n, max }).map(Amount)

describe("refund math", () => {
  it("examples: partial, the rest, too much, nothing left", () => {
    const amount = Amount(10_000_000_000n)
    expect(planRefund({ amount, refunded: Amount(0n), requested: Amount(1_234_000_000n) })).toEqual({
      _tag: "Refund", amount: 1_234_000_000n, totalAfter: 1_234_000_000n, remainingAfter: 8_766_000_000n, fullyRefunded: false
    })
    expect(planRefund({ amount, refunded: Amount(1_234_000_000n), requested: undefined })).toEqual({
      _tag: "Refund", amount: 8_766_000_000n, totalAfter: amount, remainingAfter: 0n, fullyRefunded: true
    })
    expect(planRefund({ amount, refunded: Amount(1n), requested: amount })).toEqual({ _tag: "ExceedsRefundable" })
    expect(planRefund({ amount, refunded: amount, requested: Amount(1n) })).toEqual({ _tag: "FullyRefunded" })
  })

  it("never refunds past the amount, and the totals always add up", () => {
    fc.assert(fc.property(atoms(10n ** 18n - 1n), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.option(atoms(10n ** 18n), { nil: undefined }), (amount, refundedSeed, requested) => {
      const refunded = Amount(refundedSeed % (amount + 1n))
      const plan = planRefund({ amount, refunded, requested })
      if (plan._tag === "Refund") {
        expect(plan.amount > 0n).toBe(true)
        expect(plan.totalAfter).toBe(refunded + plan.amount)
        expect(plan.totalAfter <= amount).toBe(true)
        expect(plan.remainingAfter + plan.totalAfter).toBe(amount)
        expect(plan.fullyRefunded).toBe(plan.remainingAfter === 0n)
        if (requested === undefined) expect(plan.fullyRefunded).toBe(true)
      } else if (plan._tag === "FullyRefunded") {
        expect(refunded).toBe(amount)
      } else {
        expect(requested !== undefined && requested > amount - refunded).toBe(true)
      }
    }), { numRuns: 2000 })
  })

  it("fully refunded means the same on the payment, the plan and the refund record", () => {
    fc.assert(fc.property(atoms(10n ** 18n - 1n), fc.bigInt({ min: 0n, max: 10n ** 18n }), atoms(10n ** 18n), (amount, refundedSeed, requested) => {
      const refunded = Amount(refundedSeed % amount)
      const plan = planRefund({ amount, refunded, requested })
      if (plan._tag !== "Refund") return
      const record = {
        refundTrxId: "r", paymentTrxId: "p", merchantId: 1 as never, environment: "sandbox" as const, amount: plan.amount,
        currency: "USD", reason: null, refRefund: null, totalRefunded: plan.totalAfter, remainingRefund: plan.remainingAfter, createdAt: 0n as never
      }
      expect(plan.fullyRefunded).toBe(isFullyRefunded(amount, plan.totalAfter))
      expect(leftFullyRefunded(record)).toBe(plan.fullyRefunded)
      expect(plan.fullyRefunded).toBe(plan.totalAfter === amount)
    }))
    expect(isFullyRefunded(Amount(0n), Amount(0n))).toBe(false)
  })

  it("a sequence of partial refunds stops exactly at the amount", () => {
    fc.assert(fc.property(atoms(10n ** 12n), fc.array(atoms(10n ** 11n), { maxLength: 40 }), (amount, requests) => {
      let refunded = Amount(0n)
      for (const requested of requests) {
        const plan = planRefund({ amount, refunded, requested })
        if (plan._tag === "Refund") refunded = plan.totalAfter
      }
      expect(refunded <= amount).toBe(true)
      const rest = planRefund({ amount, refunded, requested: undefined })
      expect(rest._tag === "FullyRefunded" ? amount : rest._tag === "Refund" ? rest.totalAfter : -1n).toBe(amount)
    }))
  })

  it("a payment's refundable amount is exactly what a refund may take: all of it passes, one atom more is refused", () => {
    fc.assert(fc.property(atoms(10n ** 18n - 1n), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.constantFrom("pending" as const, "success" as const, "failed" as const), (amount, refundedSeed, status) => {
      const refundedAmount = Amount(refundedSeed % (amount + 1n))
      const left = refundableAmount({ status, amount, refundedAmount })
      expect(left >= 0n && left <= amount).toBe(true)
      if (status !== "success") {
        expect(left).toBe(0n)
        return
      }
      expect(left).toBe(remainingRefund(amount, refundedAmount))
      expect(left + refundedAmount).toBe(amount)
      const whole = planRefund({ amount, refunded: refundedAmount, requested: left > 0n ? left : undefined })
      if (left === 0n) {
        expect(whole._tag).toBe("FullyRefunded")
        return
      }
      expect(whole).toMatchObject({ _tag: "Refund", amount: left, fullyRefunded: true })
      expect(planRefund({ amount, refunded: refundedAmount, requested: Amount(left + 1n) })._tag).toBe("ExceedsRefundable")
    }), { numRuns: 2000 })
    expect(remainingRefund(Amount(5n), Amount(7n))).toBe(0n)
  })

  it("(property) what disputes hold of a payment is never refunded: up to amount - refunded - held passes, one atom more is refused", () => {
    fc.assert(fc.property(atoms(10n ** 18n - 1n), fc.bigInt({ min: 0n, max: 10n ** 18n }), fc.bigInt({ min: 0n, max: 10n ** 18n }), (amount, refundedSeed, heldSeed) => {
      const refunded = Amount(refundedSeed % (amount + 1n))
      const held = Amount(heldSeed % (amount - refunded + 1n))
      const left = refundableAmount({ status: "success", amount, refundedAmount: refunded }, held)
      expect(left).toBe(amount - refunded - held)
      const rest = planRefund({ amount, refunded, requested: undefined, held })
      if (refunded === amount) expect(rest._tag).toBe("FullyRefunded")
      else if (left === 0n) expect(rest).toEqual({ _tag: "HeldByDisputes", refundable: 0n })
      else {
        expect(rest).toMatchObject({ _tag: "Refund", amount: left, totalAfter: refunded + left })
        const over = planRefund({ amount, refunded, requested: Amount(left + 1n), held })
        expect(over._tag).toBe(held > 0n ? "HeldByDisputes" : "ExceedsRefundable")
      }
    }), { numRuns: 2000 })
  })
})
