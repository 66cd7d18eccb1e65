import { Amount, ZERO } from "../money/amount.js"
import type { PaymentStatus } from "../payments/payment.js"

/** Fully refunded: nothing of a (positive) amount is left to refund. The one rule every answer shows. */
export const isFullyRefunded = (amount: Amount, refunded: Amount): boolean => amount > 0n && refunded >= amount

/** What is left to refund of an amount once `refunded` of it was: never below zero. */
export const remainingRefund = (amount: Amount, refunded: Amount): Amount => (refunded >= amount ? ZERO : Amount(amount - refunded))

/**
 * What a payment can still refund: the rest of a completed payment less what its disputes hold (open
 * or lost), and nothing of any other payment (spec 4.3 refuses those first). Every screen and answer
 * that says "up to" reads it here.
 */
export const refundableAmount = (payment: {
  readonly status: PaymentStatus
  readonly amount: Amount
  readonly refundedAmount: Amount
}, held: Amount = ZERO): Amount => (payment.status === "success" ? remainingRefund(payment.amount, Amount(payment.refundedAmount + held)) : ZERO)

/** What a refund request comes to against a payment's amount and what was refunded before. */
export type RefundPlan =
  | { readonly _tag: "Refund"; readonly amount: Amount; readonly totalAfter: Amount; readonly remainingAfter: Amount; readonly fullyRefunded: boolean }
  | { readonly _tag: "FullyRefunded" }
  | { readonly _tag: "ExceedsRefundable" }
  /** Within what is left of the amount, but not of what the payment's disputes leave of it. */
  | { readonly _tag: "HeldByDisputes"; readonly refundable: Amount }

/**
 * `requested` undefined means "the rest". Partial refunds accumulate and never pass the amount, less
 * what the payment's disputes hold (`held`, open or lost: that money went back through the network);
 * a payment with nothing left is "fully refunded" whatever is asked (the contract checks that first).
 * Preconditions: 0 <= refunded <= amount, held >= 0, requested > 0 when given.
 */
export const planRefund = (input: {
  readonly amount: Amount
  readonly refunded: Amount
  readonly requested: Amount | undefined
  readonly held?: Amount
}): RefundPlan => {
  if (isFullyRefunded(input.amount, input.refunded)) return { _tag: "FullyRefunded" }
  const remaining = remainingRefund(input.amount, input.refunded)
  const refundable = remainingRefund(input.amount, Amount(input.refunded + (input.held ?? ZERO)))
  const refund = input.requested ?? refundable
  if (refund > remaining) return { _tag: "ExceedsRefundable" }
  if (refund > refundable || refund === 0n) return { _tag: "HeldByDisputes", refundable }
  const totalAfter = Amount(input.refunded + refund)
  return {
    _tag: "Refund",
    amount: refund,
    totalAfter,
    remainingAfter: Amount(input.amount - totalAfter),
    fullyRefunded: isFullyRefunded(input.amount, totalAfter)
  }
}
