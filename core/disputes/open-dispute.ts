import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { Amount } from "../money/amount.js"
import { roundHalfUpToExponent } from "../money/arithmetic.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toCurrencyString } from "../money/format.js"
import { type AmountInput, parseAmount } from "../money/parse.js"
import { type Payment, PaymentNotFound } from "../payments/payment.js"
import { PaymentRepository } from "../payments/payment-repository.js"
import type { GatewayId } from "../shared/ids.js"
import { type Instant, now, plusSeconds } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { type Dispute, DisputeRefused } from "./dispute.js"
import { disputeOpened } from "./dispute-changes.js"
import { DisputeRepository } from "./dispute-repository.js"
import { DisputeSettings } from "./dispute-settings.js"

const SECONDS_PER_DAY = 86_400

/** What is left of a payment to refund or dispute: its amount less what was refunded and what disputes hold of it. */
export const undisputedRest = (payment: Payment, held: Amount): Amount => {
  const rest = payment.amount - payment.refundedAmount - held
  return Amount(rest > 0n ? rest : 0n)
}

/** A completed payment, locked for the rest of the transaction, with what its disputes already hold. */
export const lockedForDispute = (trxId: string) =>
  Effect.gen(function*() {
    const payments = yield* PaymentRepository
    const found = yield* payments.findByTrxId(trxId)
    if (Option.isNone(found)) return yield* new PaymentNotFound({ trxId })
    const locked = Option.getOrThrow(yield* payments.findScopedForUpdate(found.value.merchantId, found.value.environment, trxId))
    const held = yield* (yield* DisputeRepository).heldOfPayment(trxId)
    return { payment: locked, held }
  })

export interface DisputeOpening {
  readonly amount: Amount
  readonly reason: string
  readonly evidenceDueBy?: Instant
  readonly gateway?: { readonly id: GatewayId; readonly disputeId: string }
}

/** Opens a dispute on a locked, completed payment: the merchant's dispute fee priced, the money held. */
export const openOnPayment = (payment: Payment, opening: DisputeOpening) =>
  Effect.gen(function*() {
    const merchant = Option.getOrThrow(yield* (yield* MerchantRepository).findById(payment.merchantId))
    const exponent = yield* exponentOfHeld(payment.currency)
    const at = yield* now
    const { evidenceDays } = yield* DisputeSettings
    const dispute: Dispute = {
      id: `dp_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`,
      merchantId: payment.merchantId,
      environment: payment.environment,
      paymentTrxId: payment.trxId,
      currency: payment.currency,
      amount: opening.amount,
      fee: roundHalfUpToExponent(merchant.disputeFee, exponent),
      reason: opening.reason,
      status: "needs_response",
      evidenceDueBy: opening.evidenceDueBy ?? plusSeconds(at, evidenceDays * SECONDS_PER_DAY),
      evidenceText: null,
      evidenceFiles: [],
      gatewayId: opening.gateway?.id ?? null,
      gatewayDisputeId: opening.gateway?.disputeId ?? null,
      createdAt: at,
      updatedAt: at
    }
    return yield* disputeOpened(dispute)
  })

export interface SandboxDisputeRequest {
  readonly amount: AmountInput | undefined
  readonly reason: string
}

/**
 * An operator opens a dispute on a completed sandbox payment, as a card network would: for the
 * amount asked, or all that is left of the payment (less refunds and other disputes).
 */
export const openSandboxDispute = (trxId: string, request: SandboxDisputeRequest) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const { payment, held } = yield* lockedForDispute(trxId)
      if (payment.environment !== "sandbox") {
        return yield* new DisputeRefused({ message: "Only a sandbox payment can be disputed here; production disputes come from the gateway." })
      }
      if (payment.status !== "success") return yield* new DisputeRefused({ message: "Only a completed payment can be disputed." })
      const exponent = yield* exponentOfHeld(payment.currency)
      const left = undisputedRest(payment, held)
      if (left === 0n) return yield* new DisputeRefused({ message: "Nothing is left of this payment to dispute: it was refunded or disputed in full." })
      let amount = left
      if (request.amount !== undefined) {
        const parsed = parseAmount(request.amount, exponent, { allowZero: false })
        if (Either.isLeft(parsed)) return yield* ValidationFailed.field("amount", parsed.left.message, "INVALID_AMOUNT")
        if (parsed.right > left) {
          return yield* ValidationFailed.field("amount", `The dispute amount exceeds what is left of the payment: ${toCurrencyString(left, exponent)} ${payment.currency}.`, "INVALID_AMOUNT")
        }
        amount = parsed.right
      }
      return yield* openOnPayment(payment, { amount, reason: request.reason })
    })))
