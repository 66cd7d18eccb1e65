import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { type GatewayRefund, GatewayRefunds } from "../refunds/gateway-refund.js"
import type { Refund } from "../refunds/refund.js"
import { RefundRepository } from "../refunds/refund-repository.js"
import { type CheckoutAttempt, CheckoutAttempts } from "./checkout-attempts.js"
import type { Payment } from "./payment.js"
import { type PaymentFlag, PaymentFlags } from "./payment-flags.js"
import { PaymentRepository } from "./payment-repository.js"

/** Everything the kit knows of one payment: what gateways said of it, and where its refunds stand. */
export interface PaymentRecord {
  readonly payment: Payment
  readonly flags: ReadonlyArray<PaymentFlag>
  readonly checkoutAttempts: ReadonlyArray<CheckoutAttempt>
  /** Each refund with its refund at the gateway, absent for one that moved the wallet only. */
  readonly refunds: ReadonlyArray<{ readonly refund: Refund; readonly atGateway: GatewayRefund | undefined }>
}

/** The operator's view of one payment, any merchant's; none when there is no such payment. */
export const paymentRecord = (trxId: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* PaymentRepository).findByTrxId(trxId)
    if (Option.isNone(found)) return Option.none<PaymentRecord>()
    const [flags, checkoutAttempts, refunds, gatewayRefunds] = yield* Effect.all([
      (yield* PaymentFlags).listForPayment(trxId),
      (yield* CheckoutAttempts).listForPayment(trxId),
      (yield* RefundRepository).listForPayment(trxId),
      (yield* GatewayRefunds).listForPayment(trxId)
    ])
    const byRefund = new Map(gatewayRefunds.map((row) => [row.refundTrxId, row]))
    return Option.some<PaymentRecord>({
      payment: found.value,
      flags,
      checkoutAttempts,
      refunds: refunds.map((refund) => ({ refund, atGateway: byRefund.get(refund.refundTrxId) }))
    })
  })

/** What gateways reported that the kit refused to act on, newest first. */
export const recentFlags = (limit: number) => Effect.flatMap(PaymentFlags, (flags) => flags.listRecent(limit))
