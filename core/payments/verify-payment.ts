import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { expireIfDue } from "./open-checkout.js"
import { finishPayment } from "./finish-payment.js"
import { PaymentNotFound, type PaymentOutcome } from "./payment.js"
import { PaymentRepository } from "./payment-repository.js"

const scoped = (caller: MerchantScope, trxId: string) =>
  Effect.flatMap(PaymentRepository, (payments) => payments.findScoped(caller.merchant.id, caller.environment, trxId)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new PaymentNotFound({ trxId })), onSome: Effect.succeed }))
  )

/** Only the caller's own payment in its own environment: anything else does not exist for it. */
export const verifyPayment = (caller: MerchantScope, trxId: string) => Effect.flatMap(scoped(caller, trxId), expireIfDue)

/** What a simulated gateway can say: anything but expiry, which only time decides. */
export type SimulatedOutcome = Exclude<PaymentOutcome, "expired">

/** Sandbox only: ends a payment as a gateway would, through the same completion path. */
export const simulatePayment = (caller: MerchantScope, trxId: string, outcome: SimulatedOutcome) =>
  Effect.gen(function*() {
    if (caller.environment !== "sandbox") return yield* new PaymentNotFound({ trxId })
    const payment = yield* expireIfDue(yield* scoped(caller, trxId))
    return yield* finishPayment(payment.trxId, { outcome, gatewayId: null })
  })
