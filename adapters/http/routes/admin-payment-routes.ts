import { HttpRouter } from "@effect/platform"
import { Effect, Option } from "effect"
import type { CheckoutAttempt } from "../../../core/payments/checkout-attempts.js"
import { CheckoutAttempts } from "../../../core/payments/checkout-attempts.js"
import type { Payment } from "../../../core/payments/payment.js"
import { type PaymentFlag, PaymentFlags } from "../../../core/payments/payment-flags.js"
import { PaymentRepository } from "../../../core/payments/payment-repository.js"
import { type GatewayRefund, GatewayRefunds } from "../../../core/refunds/gateway-refund.js"
import type { Refund } from "../../../core/refunds/refund.js"
import { RefundRepository } from "../../../core/refunds/refund-repository.js"
import { type Instant, toIsoString } from "../../../core/shared/instant.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { ok } from "../response/api-response.js"
import type * as Resources from "../contract/admin-resources.js"
import { flagLimitParameter, paymentTrxIdInPath } from "../contract/parameters.js"
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

/** Everything the kit knows of one payment: what a gateway said of it, and where its refunds stand. */
const paymentView = (trxId: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* PaymentRepository).findByTrxId(trxId)
    if (Option.isNone(found)) return yield* new ResourceNotFound({ resource: "Payment" })
    const [flags, attempts, refunds, gatewayRefunds] = yield* Effect.all([
      (yield* PaymentFlags).listForPayment(trxId),
      (yield* CheckoutAttempts).listForPayment(trxId),
      (yield* RefundRepository).listForPayment(trxId),
      (yield* GatewayRefunds).listForPayment(trxId)
    ])
    const byRefund = new Map(gatewayRefunds.map((row) => [row.refundTrxId, row]))
    return {
      ...paymentJson(found.value),
      flags: flags.map(flagJson),
      checkout_attempts: attempts.map(attemptJson),
      refunds: refunds.map((refund) => refundJson(refund, byRefund.get(refund.refundTrxId)))
    }
  })

// `flagged` is registered before `:trx_id`, and the router prefers a static segment anyway.
export const adminPaymentRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/payments/flagged", adminEndpoint(Effect.gen(function*() {
    const flags = yield* (yield* PaymentFlags).listRecent(yield* flagLimitParameter.read)
    return ok({ data: flags.map((flag) => ({ trx_id: flag.trxId, ...flagJson(flag) })) } satisfies typeof Resources.FlaggedPaymentList.Type)
  }))),
  HttpRouter.get("/payments/:trx_id", adminEndpoint(Effect.gen(function*() {
    const trxId = yield* paymentTrxIdInPath.read
    return ok({ data: yield* paymentView(trxId) } satisfies typeof Resources.PaymentView.Type)
  })))
)
