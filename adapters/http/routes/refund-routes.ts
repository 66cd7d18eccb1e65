import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { leftFullyRefunded, type Refund } from "../../../core/refunds/refund.js"
import { refundPayment } from "../../../core/refunds/refund-payment.js"
import { ok } from "../api-response.js"
import { refundPaymentBody } from "../contract/payment-contracts.js"
import type { RefundResult } from "../contract/payment-resources.js"
import { validBody } from "../contract/read-body.js"
import { jsonAmount } from "../json-codec.js"
import { CurrentMerchant, merchantEndpoint } from "../merchant-endpoint.js"

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

const refund = Effect.gen(function*() {
  const caller = yield* CurrentMerchant
  const body = yield* validBody(refundPaymentBody)
  const { refund } = yield* refundPayment(caller, {
    trxId: body.trx_id,
    amount: body.amount,
    reason: body.reason ?? null,
    refRefund: body.ref_refund ?? null
  })
  return ok(refundJson(refund))
})

export const refundRoutes = HttpRouter.empty.pipe(HttpRouter.post("/api/v1/refund-payment", merchantEndpoint(refund)))
