import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { leftFullyRefunded, type Refund } from "../../../core/refunds/refund.js"
import { refundPayment } from "../../../core/refunds/refund-payment.js"
import { ok } from "../api-response.js"
import { BodyFields } from "../body-fields.js"
import { jsonAmount } from "../json-codec.js"
import { CurrentMerchant, merchantEndpoint } from "../merchant-endpoint.js"
import { jsonObjectBody } from "../request-body.js"

/** Spec 2.4, from the refund as recorded: a replay of a ref_refund answers with the totals of then. */
export const refundJson = (refund: Refund) => ({
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
  const fields = new BodyFields(yield* jsonObjectBody)
  const request = {
    trxId: fields.string("trx_id", { required: true, max: 100 }),
    amount: fields.amount("amount"),
    reason: fields.string("reason", { max: 500 }) ?? null,
    refRefund: fields.reference("ref_refund", { max: 100 }) ?? null
  }
  const valid = yield* fields.done(() => ({ ...request, trxId: request.trxId! }))
  const { refund } = yield* refundPayment(caller, valid)
  return ok(refundJson(refund))
})

export const refundRoutes = HttpRouter.empty.pipe(HttpRouter.post("/api/v1/refund-payment", merchantEndpoint(refund)))
