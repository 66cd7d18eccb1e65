import * as Effect from "effect/Effect"
import { DisputeRepository } from "../disputes/dispute-repository.js"
import type { Payment } from "../payments/payment.js"
import { refundableAmount } from "./refund-math.js"

/** What a payment can refund now: its rest less what its open and lost disputes hold (a screen's "up to"). */
export const refundableNow = (payment: Payment) =>
  Effect.map(Effect.flatMap(DisputeRepository, (disputes) => disputes.heldOfPayment(payment.trxId)), (held) => refundableAmount(payment, held))
