import { oncePerFormKey } from "../idempotency/form-key.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { refundPayment, type RefundRequest } from "./refund-payment.js"

const amountText = (request: RefundRequest) =>
  request.amount === undefined ? "" : request.amount.kind === "string" ? request.amount.value : request.amount.text

/**
 * A refund made at most once per key (the dashboard's refund form): the same amount and reason under
 * the key is the same refund, answered with its refund trx id. The texts are those of the records
 * written before, so a form sent across an upgrade still matches.
 */
export const refundOncePerKey = (scope: MerchantScope, request: RefundRequest, key: string) =>
  oncePerFormKey(
    scope,
    { namespace: "dashboard-refund", operation: `refundPayment ${request.trxId}`, input: `${amountText(request)}\n${request.reason ?? ""}`, key },
    refundPayment(scope, request),
    ({ refund }) => refund.refundTrxId
  )
