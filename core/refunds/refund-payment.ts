import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { Amount } from "../money/amount.js"
import { DisputeRepository } from "../disputes/dispute-repository.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { type AmountInput, parseAmount } from "../money/parse.js"
import { GatewayPlugins } from "../gateways/gateway-plugin.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import { type Payment, PaymentNotFound } from "../payments/payment.js"
import { PaymentRepository } from "../payments/payment-repository.js"
import { now } from "../shared/instant.js"
import { refundsMade } from "../shared/metrics.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import { enqueueEvent } from "../webhooks/endpoint-copies.js"
import { GatewayRefunds, newGatewayRefund } from "./gateway-refund.js"
import {
  PartialRefundUnsupported,
  PaymentFullyRefunded,
  PaymentNotRefundable,
  type Refund,
  RefundExceedsBalance,
  RefundHeldByDisputes,
  RefundReferenceConflict,
  WalletInsufficientForRefund
} from "./refund.js"
import { refundEventDelivery } from "./refund-event.js"
import { isFullyRefunded, planRefund, remainingRefund } from "./refund-math.js"
import { RefundRepository } from "./refund-repository.js"

export interface RefundRequest {
  readonly trxId: string
  readonly amount: AmountInput | undefined
  readonly reason: string | null
  readonly refRefund: string | null
}

const previousRefund = (trxId: string, refRefund: string | null) =>
  refRefund === null
    ? Effect.succeed(Option.none<Refund>())
    : Effect.flatMap(RefundRepository, (refunds) => refunds.findByReference(trxId, refRefund))

const requestedAmount = (input: AmountInput | undefined, currency: string) =>
  Effect.gen(function*() {
    if (input === undefined) return undefined
    const exponent = yield* exponentOfHeld(currency)
    const parsed = parseAmount(input, exponent, { allowZero: false })
    if (Either.isLeft(parsed)) return yield* ValidationFailed.field("amount", parsed.left.message, "INVALID_AMOUNT")
    return parsed.right
  })

/**
 * The gateway that sends this payment's refunds back to the source, when its plugin can: none for a
 * payment no gateway took, or whose plugin cannot refund (the refund is then the wallet debit alone,
 * as before). A plugin no longer registered fails the refund (503) rather than skip the customer.
 */
const sourceRefunder = (payment: Payment) =>
  Effect.gen(function*() {
    if (payment.gatewayId === null) return undefined
    const gateway = yield* (yield* GatewayRepository).findById(payment.gatewayId)
    if (Option.isNone(gateway)) return undefined
    const { capabilities } = yield* (yield* GatewayPlugins).get(gateway.value.plugin)
    return capabilities.refunds ? { gatewayId: gateway.value.id, partial: capabilities.partialRefunds } : undefined
  })

/**
 * A repeated `ref_refund` answers with the refund it made, moving no money; with another amount it
 * is a different request under a used reference, refused rather than answered as if it had run.
 * Without an amount it asks for "the rest", which the earlier refund already answered.
 */
const replayOf = (previous: Refund, request: RefundRequest) =>
  Effect.flatMap(requestedAmount(request.amount, previous.currency), (requested) =>
    requested !== undefined && requested !== previous.amount
      ? Effect.fail(new RefundReferenceConflict({ refRefund: previous.refRefund ?? "" }))
      : Effect.succeed({ refund: previous, replayed: true }))

/**
 * One transaction (spec 4.3, design "Money"): the payment's refunded total grows only while it stays
 * within the amount, the wallet is debited only while it stays at or above zero, and the refund and its
 * event are written with them; any refusal rolls all of it back. The fee is not returned. A payment
 * whose gateway can refund also gets its gateway refund enqueued here, executed later in the
 * background: the answer and the wallet debit never wait for the gateway.
 */
const refundOnce = (caller: MerchantScope, request: RefundRequest) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const payments = yield* PaymentRepository
      // Locked before anything is decided: totals and "the rest" are computed from the current row.
      const found = yield* payments.findScopedForUpdate(caller.merchant.id, caller.environment, request.trxId)
      if (Option.isNone(found)) return yield* new PaymentNotFound({ trxId: request.trxId })
      const payment = found.value
      const previous = yield* previousRefund(payment.trxId, request.refRefund)
      // The same merchant reference never refunds twice: answer with the refund it already made.
      if (Option.isSome(previous)) return yield* replayOf(previous.value, request)

      if (payment.status !== "success") return yield* new PaymentNotRefundable()
      if (isFullyRefunded(payment.amount, payment.refundedAmount)) return yield* new PaymentFullyRefunded()
      const exponent = yield* exponentOfHeld(payment.currency)
      const inCurrency = (amount: Amount) => ({ amount, currency: payment.currency, exponent })
      const requested = yield* requestedAmount(request.amount, payment.currency)
      // Disputes open on the payment are written under the same row lock, so this holds until the commit.
      const held = yield* (yield* DisputeRepository).heldOfPayment(payment.trxId)
      const plan = planRefund({ amount: payment.amount, refunded: payment.refundedAmount, requested, held })
      if (plan._tag === "FullyRefunded") return yield* new PaymentFullyRefunded()
      if (plan._tag === "ExceedsRefundable") {
        return yield* held > 0n
          ? new RefundHeldByDisputes({ ...inCurrency(remainingRefund(payment.amount, Amount(payment.refundedAmount + held))), held })
          : new RefundExceedsBalance(inCurrency(remainingRefund(payment.amount, payment.refundedAmount)))
      }
      if (plan._tag === "HeldByDisputes") return yield* new RefundHeldByDisputes({ ...inCurrency(plan.refundable), held })
      const refunder = yield* sourceRefunder(payment)
      // Before any money moves: the wallet must not be debited for a refund the gateway cannot make.
      if (refunder !== undefined && !refunder.partial && plan.amount !== payment.amount) {
        return yield* new PartialRefundUnsupported(inCurrency(payment.amount))
      }

      const at = yield* now
      // Still conditional, as a second guard: the row is locked, so this cannot lose a race.
      const updated = yield* payments.addRefunded(payment.trxId, plan.amount, at)
      if (Option.isNone(updated)) {
        const current = Option.getOrThrow(yield* payments.findByTrxId(payment.trxId))
        return yield* isFullyRefunded(current.amount, current.refundedAmount)
          ? new PaymentFullyRefunded()
          : new RefundExceedsBalance(inCurrency(remainingRefund(current.amount, current.refundedAmount)))
      }
      const ids = yield* Ids
      const refundTrxId = yield* ids.transactionId(payment.environment)
      const wallets = yield* WalletRepository
      const wallet = Option.getOrThrow(yield* wallets.find(payment.merchantId, payment.currency, payment.environment))
      yield* wallets.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-plan.amount), reference: refundTrxId, memo: request.reason }).pipe(
        Effect.catchTags({
          // The balance as it is now (re-read after the refused debit): what the merchant can act on.
          InsufficientBalance: () =>
            Effect.flatMap(wallets.findById(wallet.id), (current) =>
              Effect.fail(new WalletInsufficientForRefund(inCurrency(Option.match(current, { onNone: () => wallet.balance, onSome: (w) => w.balance }))))),
          BalanceOverflow: (error) => Effect.die(error),
          WalletNotFound: (error) => Effect.die(error)
        })
      )
      const refund = yield* (yield* RefundRepository).insert({
        refundTrxId,
        paymentTrxId: payment.trxId,
        merchantId: payment.merchantId,
        environment: payment.environment,
        amount: plan.amount,
        currency: payment.currency,
        reason: request.reason,
        refRefund: request.refRefund,
        totalRefunded: plan.totalAfter,
        remainingRefund: plan.remainingAfter
      })
      // In the same transaction: the customer's money leaves through the gateway later, and never
      // without this refund (nor this refund without it).
      if (refunder !== undefined) yield* (yield* GatewayRefunds).enqueue(newGatewayRefund(refund, refunder.gatewayId, at))
      yield* enqueueEvent(yield* refundEventDelivery(yield* ids.uuid, updated.value, refund, at))
      return { refund, replayed: false }
    })).pipe(
      // Counted once it committed; a replay answered from the earlier refund moved nothing.
      Effect.tap(({ refund, replayed }) =>
        replayed ? Effect.void : Metric.increment(Metric.tagged(refundsMade, "environment", refund.environment)))
    ))

/**
 * Refunds a completed payment. Two requests racing with one `ref_refund`: the loser's insert meets
 * the winner's reference, its whole transaction rolls back (no money moved), and it answers with the
 * winner's refund.
 */
export const refundPayment = (caller: MerchantScope, request: RefundRequest) =>
  refundOnce(caller, request).pipe(
    Effect.catchTag("RefundReferenceUsed", () =>
      Effect.flatMap(previousRefund(request.trxId, request.refRefund), (refund) => replayOf(Option.getOrThrow(refund), request)))
  )
