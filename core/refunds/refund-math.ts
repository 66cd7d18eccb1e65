import { Amount, ZERO } from "../money/amount.js"
import type { PaymentStatus } from "../payments/payment.js"

/** Fully refunded: nothing of a (positive) amount is left to refund. The one rule every answer shows. */
export const isFullyRefunded = (amount: Amount, refunded: Amount): boolean => amount > 0n && refunded >= amount

/** What is left to refund of an amount once `refunded` of it was: never below zero. */
export const remainingRefund = (amount: Amount, refunded: Amount): Amount => (refunded >= amount ? ZERO : Amount(amount - refunded))

/**
 * What a payment can still refund: the rest of a completed payment, and nothing of any other (spec
 * 4.3 refuses those first). Every screen and answer that says "up to" reads it here.
 */
export const refundableAmount = (payment: {
  readonly status: PaymentStatus
  readonly amount: Amount
  readonly refundedAmount: Amount
}): Amount => (payment.status === "success" ? remainingRefund(payment.amount, payment.refundedAmount) : ZERO)

/** What a refund request comes to against a payment's amount and what was refunded before. */
export type RefundPlan =
  | { readonly _tag: "Refund"; readonly amount: Amount; readonly totalAfter: Amount; readonly remainingAfter: Amount; readonly fullyRefunded: boolean }
  | { readonly _tag: "FullyRefunded" }
  | { readonly _tag: "ExceedsRefundable" }

/**
 * `requested` undefined means "the rest". Partial refunds accumulate and never pass the amount;
 * a payment with nothing left is "fully refunded" whatever is asked (the contract checks that first).
 * Preconditions: 0 <= refunded <= amount, requested > 0 when given.
 */
export const planRefund = (input: { readonly amount: Amount; readonly refunded: Amount; readonly requested: Amount | undefined }): RefundPlan => {
  if (isFullyRefunded(input.amount, input.refunded)) return { _tag: "FullyRefunded" }
  const remaining = remainingRefund(input.amount, input.refunded)
  const refund = input.requested ?? remaining
  if (refund > remaining) return { _tag: "ExceedsRefundable" }
  const totalAfter = Amount(input.refunded + refund)
  return {
    _tag: "Refund",
    amount: refund,
    totalAfter,
    remainingAfter: Amount(input.amount - totalAfter),
    fullyRefunded: isFullyRefunded(input.amount, totalAfter)
  }
}
