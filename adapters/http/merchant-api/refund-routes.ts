import * as Effect from "effect/Effect"
import { leftFullyRefunded, type Refund } from "../../../core/refunds/refund.js"
import { listRefunds } from "../../../core/refunds/list-refunds.js"
import { refundPayment } from "../../../core/refunds/refund-payment.js"
import { toIsoString } from "../../../core/shared/instant.js"
import * as ListParameters from "../contract/merchant-list-parameters.js"
import { RefundPage } from "../contract/merchant-list-resources.js"
import { endpoint } from "../endpoint/endpoint.js"
import { refundPaymentBody } from "../contract/payment-contracts.js"
import { RefundResult } from "../contract/payment-resources.js"
import { validBody } from "../contract/read-body.js"
import { jsonAmount } from "../contract/json-codec.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

/** Spec 2.4, from the refund as recorded: a replay of a ref_refund answers with the totals of then. */
export const refundJson = (refund: Refund): typeof RefundResult.Type => ({
  status: "success",
  message: "Refund processed successfully.",
  refund_trx_id: refund.refundTrxId,
  original_trx_id: refund.paymentTrxId,
  refunded_amount: jsonAmount(refund.amount),
  total_refunded: jsonAmount(refund.totalRefunded),
  remaining_refund: jsonAmount(refund.remainingRefund),
  fully_refunded: leftFullyRefunded(refund),
  currency: refund.currency
})

const refund = endpoint({
  method: "post",
  path: "/api/v1/refund-payment",
  operationId: "refundPayment",
  summary: "Refund a completed payment, fully or in part",
  description: "Debits the merchant wallet (the fee is not returned) and sends `payment.refunded`. The same `ref_refund` answers the original refund and moves no money.",
  tag: "Refunds",
  security: "merchant",
  body: refundPaymentBody,
  success: { status: 200, description: "The refund (spec 2.4).", schema: RefundResult },
  errors: [
    "PaymentNotFound",
    "PaymentNotRefundable",
    "PaymentFullyRefunded",
    "RefundExceedsBalance",
    "RefundHeldByDisputes",
    "WalletInsufficientForRefund",
    "PartialRefundUnsupported",
    "RefundReferenceConflict",
    "UnknownGatewayPlugin"
  ],
  handler: Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const body = yield* validBody(refundPaymentBody)
    const { refund } = yield* refundPayment(caller, {
      trxId: body.trx_id,
      amount: body.amount,
      reason: body.reason ?? null,
      refRefund: body.ref_refund ?? null
    })
    return refundJson(refund)
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/refunds",
  operationId: "listRefunds",
  summary: "List refunds, newest first",
  description: "The merchant's refunds in the environment of the request, each as the refund endpoint answered it. " +
    "Pages follow next_cursor, which stays right while new refunds arrive.",
  tag: "Refunds",
  security: "merchant",
  query: ListParameters.refundListQuery,
  success: { status: 200, description: "A page of refunds.", schema: RefundPage },
  handler: ({ trx_id: trxId, ...request }) => Effect.gen(function*() {
    const page = yield* listRefunds(yield* CurrentMerchant, { ...request, ...(trxId !== undefined ? { trxId } : {}) })
    return {
      data: page.refunds.map((refund) => ({
        ...refundJson(refund),
        reason: refund.reason,
        ref_refund: refund.refRefund,
        created_at: toIsoString(refund.createdAt)
      })),
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor
    }
  })
})

/** Spec 4.3, and the merchant's list of refunds. */
export const refundEndpoints = [refund, list] as const
