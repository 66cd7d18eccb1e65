import * as Effect from "effect/Effect"
import { expirePayment } from "../payments/expiry-sweeper.js"
import { refundPayment } from "../refunds/refund-payment.js"
import { endedPayment, startPayment, TRIGGER_PART, type TriggeredObject, type TriggerRun, triggerCurrency } from "./triggered-objects.js"

export type PaymentTrigger = "payment.completed" | "payment.failed" | "payment.cancelled" | "payment.expired" | "payment.refunded"

const SIMULATED = { "payment.completed": "paid", "payment.failed": "declined", "payment.cancelled": "cancelled" } as const

/**
 * A payment begun as initiate begins one, then ended as the sandbox simulator ends one, expired by
 * the expiry sweeper's own step (its checkout ended early: a trigger cannot wait out its lifetime),
 * or completed and then partly refunded through the refund endpoint's use case.
 */
export const triggerPaymentEvent = (run: TriggerRun, event: PaymentTrigger) =>
  Effect.gen(function*() {
    const currency = yield* triggerCurrency(run.caller)
    if (event === "payment.expired") {
      const payment = yield* startPayment(run, currency)
      yield* expirePayment(payment.trxId)
      return [{ type: "payment", id: payment.trxId }] satisfies ReadonlyArray<TriggeredObject>
    }
    if (event === "payment.refunded") {
      const payment = yield* endedPayment(run, currency, "paid")
      const { refund } = yield* refundPayment(run.caller, { trxId: payment.trxId, amount: TRIGGER_PART, reason: "Triggered refund", refRefund: null })
      return [{ type: "payment", id: payment.trxId }, { type: "refund", id: refund.refundTrxId }] satisfies ReadonlyArray<TriggeredObject>
    }
    const payment = yield* endedPayment(run, currency, SIMULATED[event])
    return [{ type: "payment", id: payment.trxId }] satisfies ReadonlyArray<TriggeredObject>
  })
