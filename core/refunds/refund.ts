import * as Schema from "effect/Schema"
import { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import { isFullyRefunded } from "./refund-math.js"

export interface Refund {
  readonly refundTrxId: string
  readonly paymentTrxId: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly amount: Amount
  readonly currency: string
  readonly reason: string | null
  /** The merchant's refund reference: one refund per reference and payment. */
  readonly refRefund: string | null
  /** Totals after this refund, kept so a repeated ref_refund can answer with the original body. */
  readonly totalRefunded: Amount
  readonly remainingRefund: Amount
  readonly createdAt: Instant
}

export type NewRefund = Omit<Refund, "createdAt">

/** Whether the payment was fully refunded once this refund was made (its totals of then). */
export const leftFullyRefunded = (refund: Refund): boolean =>
  isFullyRefunded(Amount(refund.totalRefunded + refund.remainingRefund), refund.totalRefunded)

export class RefundReferenceUsed extends Schema.TaggedError<RefundReferenceUsed>()("RefundReferenceUsed", {
  paymentTrxId: Schema.String,
  refRefund: Schema.String
}) {}

/** The merchant's refund reference was already used on this payment for another amount. */
export class RefundReferenceConflict extends Schema.TaggedError<RefundReferenceConflict>()("RefundReferenceConflict", {
  refRefund: Schema.String
}) {}

/** Spec 4.3's refusals, in the order they are checked. */
export class PaymentNotRefundable extends Schema.TaggedError<PaymentNotRefundable>()("PaymentNotRefundable", {}) {}

export class PaymentFullyRefunded extends Schema.TaggedError<PaymentFullyRefunded>()("PaymentFullyRefunded", {}) {}

/** An amount in a currency, with the currency's minor-unit exponent so it can be shown as the customer reads it. */
const Money = {
  amount: Schema.BigIntFromSelf,
  currency: Schema.String,
  exponent: Schema.Number
}

/** `amount` is what was still refundable, so the merchant can ask again for at most that. */
export class RefundExceedsBalance extends Schema.TaggedError<RefundExceedsBalance>()("RefundExceedsBalance", Money) {}

/**
 * The refund would take part of what the payment's disputes hold (open or lost): `amount` is what is
 * still refundable, `held` what the disputes hold.
 */
export class RefundHeldByDisputes extends Schema.TaggedError<RefundHeldByDisputes>()("RefundHeldByDisputes", {
  ...Money,
  held: Schema.BigIntFromSelf
}) {}

/** `amount` is the wallet's available balance when the debit was refused. */
export class WalletInsufficientForRefund extends Schema.TaggedError<WalletInsufficientForRefund>()("WalletInsufficientForRefund", Money) {}

/**
 * The payment's gateway refunds to the source only whole payments, and this refund is not one.
 * `amount` is the payment's amount: the one refund that gateway can make.
 */
export class PartialRefundUnsupported extends Schema.TaggedError<PartialRefundUnsupported>()("PartialRefundUnsupported", Money) {}
