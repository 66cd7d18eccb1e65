import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { CheckoutAttempt } from "../../../core/payments/checkout-attempts.js"
import type { Payment } from "../../../core/payments/payment.js"
import type { PaymentFlag } from "../../../core/payments/payment-flags.js"
import { paymentRecord, recentFlags } from "../../../core/payments/payment-record.js"
import type { GatewayRefund } from "../../../core/refunds/gateway-refund.js"
import type { Refund } from "../../../core/refunds/refund.js"
import { type Instant, toIsoString } from "../../../core/shared/instant.js"
import { endpoint } from "../endpoint/endpoint.js"
import * as Resources from "../contract/admin-resources.js"
import { flagListQuery, paymentTrxIdInPath } from "../contract/parameters.js"
import { ResourceNotFound } from "../response/edge-errors.js"
import { jsonAmount } from "../contract/json-codec.js"

const isoOrNull = (instant: Instant | null) => (instant === null ? null : toIsoString(instant))

/** Fee and net are null until the payment succeeded: the operator sees what was charged, not a 0 stand-in. */
const paymentJson = (payment: Payment): typeof Resources.PaymentRecord.Type => ({
  trx_id: payment.trxId,
  merchant_id: payment.merchantId,
  environment: payment.environment,
  ref_trx: payment.refTrx,
  status: payment.status,
  failure_reason: payment.failureReason,
  amount: jsonAmount(payment.amount),
  currency: payment.currency,
  fee: payment.fee === null ? null : jsonAmount(payment.fee),
  net: payment.net === null ? null : jsonAmount(payment.net),
  refunded_amount: jsonAmount(payment.refundedAmount),
  gateway_id: payment.gatewayId,
  created_at: toIsoString(payment.createdAt),
  completed_at: isoOrNull(payment.completedAt)
})

const flagJson = (flag: PaymentFlag): typeof Resources.PaymentFlag.Type => ({
  reason: flag.reason,
  detail: flag.detail,
  gateway_id: flag.gatewayId,
  created_at: toIsoString(flag.createdAt)
})

const attemptJson = (attempt: CheckoutAttempt): typeof Resources.CheckoutAttempt.Type => ({
  gateway_id: attempt.gatewayId,
  gateway_reference: attempt.gatewayReference,
  began_at: toIsoString(attempt.beganAt)
})

/** `gateway_refund` is null for a refund that moved the wallet only (its gateway cannot refund). */
const refundJson = (refund: Refund, gatewayRefund: GatewayRefund | undefined): typeof Resources.PaymentRefund.Type => ({
  refund_trx_id: refund.refundTrxId,
  amount: jsonAmount(refund.amount),
  reason: refund.reason,
  ref_refund: refund.refRefund,
  created_at: toIsoString(refund.createdAt),
  gateway_refund: gatewayRefund === undefined ? null : {
    status: gatewayRefund.status,
    attempts: gatewayRefund.attempts,
    gateway_reference: gatewayRefund.gatewayReference,
    message: gatewayRefund.message,
    next_attempt_at: isoOrNull(gatewayRefund.nextAttemptAt)
  }
})

const flagged = endpoint({
  method: "get",
  path: "/admin/v1/payments/flagged",
  operationId: "listFlaggedPayments",
  summary: "What gateways reported that the kit refused to act on",
  tag: "Admin: payments",
  security: "admin",
  query: flagListQuery,
  success: { status: 200, description: "The most recent flags, newest first.", schema: Resources.FlaggedPaymentList },
  errors: ["ValidationFailed"],
  handler: ({ limit }) => Effect.gen(function*() {
    const flags = yield* recentFlags(limit)
    return { data: flags.map((flag) => ({ trx_id: flag.trxId, ...flagJson(flag) })) }
  })
})

const one = endpoint({
  method: "get",
  path: "/admin/v1/payments/{trx_id}",
  operationId: "getPayment",
  summary: "One payment with its flags, checkout attempts and refunds",
  tag: "Admin: payments",
  security: "admin",
  parameters: [paymentTrxIdInPath],
  success: { status: 200, description: "The payment.", schema: Resources.PaymentView },
  errors: ["ResourceNotFound"],
  handler: Effect.gen(function*() {
    const found = yield* paymentRecord(yield* paymentTrxIdInPath.read)
    if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "Payment" })
    const record = found.value
    return {
      data: {
        ...paymentJson(record.payment),
        flags: record.flags.map(flagJson),
        checkout_attempts: record.checkoutAttempts.map(attemptJson),
        refunds: record.refunds.map(({ refund, atGateway }) => refundJson(refund, atGateway))
      }
    }
  })
})

// `flagged` comes before `{trx_id}`, and the router prefers a static segment anyway.
/** docs/admin-api.md, payments. */
export const adminPaymentEndpoints = [flagged, one] as const
