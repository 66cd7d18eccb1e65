import type { Amount } from "../../../core/money/amount.js"
import { PaymentStatus } from "../../../core/payments/payment.js"
import { DEFAULT_PAYMENT_LIMIT, MAX_PAYMENT_LIMIT } from "../../../core/payments/list-payments.js"
import { DEFAULT_REFUND_LIMIT, MAX_REFUND_LIMIT } from "../../../core/refunds/list-refunds.js"
import { cursorParameter, limitParameter, textParameter, timeParameter } from "./keyset-parameters.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"
import { DecimalText } from "./value-schemas.js"

/** The queries of GET /api/v1/payments and GET /api/v1/refunds: every parameter optional, every bad one told at once. */

export const listSinceParameter = timeParameter("since", "Only those created at or after this time.")
export const listUntilParameter = timeParameter("until", "Only those created before this time.")

export const paymentLimitParameter = limitParameter("Payments per page.", DEFAULT_PAYMENT_LIMIT, MAX_PAYMENT_LIMIT)
export const paymentCursorParameter = cursorParameter("A previous page's next_cursor: the page after it, however many payments arrived since.")
export const paymentStatusParameter: ListParameter<PaymentStatus | undefined> = {
  name: "status",
  in: "query",
  required: false,
  description: "Only payments with this status, as verify-payment answers it (a pending payment past its expiry is failed).",
  schema: PaymentStatus,
  read: (query) => query.oneOf("status", PaymentStatus.literals)
}
export const paymentReferenceParameter = textParameter("reference", 60, "Only the payments of this ref_trx, matched exactly.")
export const paymentAmountParameter: ListParameter<Amount | undefined> = {
  name: "amount",
  in: "query",
  required: false,
  description: "Only payments of exactly this amount, a decimal such as 10.50 (10.5 and 10.50 are the same amount).",
  schema: DecimalText,
  read: (query) => query.amount("amount")
}
export const paymentCurrencyParameter = textParameter("currency", 10, "Only payments in this currency, such as USD.")

export const paymentListQuery = queryOf({
  limit: paymentLimitParameter,
  cursor: paymentCursorParameter,
  status: paymentStatusParameter,
  reference: paymentReferenceParameter,
  amount: paymentAmountParameter,
  currency: paymentCurrencyParameter,
  since: listSinceParameter,
  until: listUntilParameter
})

export const refundLimitParameter = limitParameter("Refunds per page.", DEFAULT_REFUND_LIMIT, MAX_REFUND_LIMIT)
export const refundCursorParameter = cursorParameter("A previous page's next_cursor: the page after it, however many refunds arrived since.")
export const refundPaymentParameter = textParameter("trx_id", 100, "Only the refunds of this payment.")

export const refundListQuery = queryOf({
  limit: refundLimitParameter,
  cursor: refundCursorParameter,
  trx_id: refundPaymentParameter,
  since: listSinceParameter,
  until: listUntilParameter
})
