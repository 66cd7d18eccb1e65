import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { holdReserve } from "../balances/reserve-holds.js"
import { Ledger } from "../ledger/ledger.js"
import { movementLines } from "../ledger/movements.js"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { priceFee } from "../money/fees.js"
import { now } from "../shared/instant.js"
import { paymentsFinished } from "../shared/metrics.js"
import { Transactor } from "../shared/transactor.js"
import { Ids } from "../signing/random-ids.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import { enqueueEvent } from "../webhooks/endpoint-copies.js"
import { type Completion, PaymentAlreadyFinal, type PaymentEnding, PaymentNotFound } from "./payment.js"
import { paymentEventDelivery } from "./payment-event.js"
import { PaymentSettlement } from "./payment-settlement.js"
import { PaymentRepository } from "./payment-repository.js"

/**
 * Ends a pending payment in one transaction: the status change, the fee and net from the merchant's
 * fee settings, the journal entry of gross, fee and net (the wallet credited the net, less the
 * merchant's rolling reserve share, held), and the webhook event in the outbox.
 * Either all of it happens or none; a payment that already ended is refused, whoever got there first.
 */
export const finishPayment = (trxId: string, ending: PaymentEnding) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const payments = yield* PaymentRepository
      const at = yield* now
      const payment = yield* payments.findByTrxId(trxId)
      if (Option.isNone(payment)) return yield* new PaymentNotFound({ trxId })
      if (payment.value.status !== "pending") {
        return yield* new PaymentAlreadyFinal({ trxId, status: payment.value.status })
      }
      // Locks and moves what the payment settles first (an invoice's subscription), in the order every
      // writer of a subscription locks: its row, then its invoice, then the payment.
      yield* (yield* PaymentSettlement).settle(payment.value, ending.outcome, at)
      const merchant = Option.getOrThrow(yield* (yield* MerchantRepository).findById(payment.value.merchantId))

      let completion: Completion
      if (ending.outcome === "paid") {
        const exponent = yield* exponentOfHeld(payment.value.currency)
        const { fee, net } = priceFee({
          amount: payment.value.amount,
          percent: merchant.feePercent,
          fixed: merchant.feeFixed,
          exponent
        })
        completion = { outcome: "paid", fee, net, gatewayId: ending.gatewayId }
      } else {
        completion = { outcome: ending.outcome, gatewayId: ending.gatewayId }
      }

      const finished = yield* payments.complete(trxId, completion, at)
      // Another request ended it between our read and our write: the conditional update lost.
      if (Option.isNone(finished)) return yield* new PaymentAlreadyFinal({ trxId, status: payment.value.status })

      if (completion.outcome === "paid" && completion.net > 0n) {
        const wallets = yield* WalletRepository
        // The wallet existed and was active when the session began; money already paid is
        // credited even if the wallet was deactivated since.
        const wallet = Option.getOrThrow(yield* wallets.find(merchant.id, payment.value.currency, payment.value.environment))
        yield* wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: completion.net, fee: completion.fee, reference: trxId }).pipe(
          Effect.catchTags({
            // Ten billion units in one wallet is past anything real; refuse loudly rather than wrap.
            BalanceOverflow: (error) => Effect.die(error),
            WalletNotFound: (error) => Effect.die(error),
            InsufficientBalance: (error) => Effect.die(error)
          })
        )
        yield* holdReserve(wallet, trxId, completion.net, at)
      } else if (completion.outcome === "paid") {
        // Nothing for the merchant, but the platform earned the whole amount: booked without a wallet.
        yield* (yield* Ledger).record({
          kind: "payment_completed",
          environment: payment.value.environment,
          currency: payment.value.currency,
          reference: trxId,
          lines: movementLines({ kind: "payment_completed", merchantId: merchant.id, gross: payment.value.amount, fee: completion.fee })
        })
      }

      const delivery = yield* paymentEventDelivery(yield* (yield* Ids).uuid, finished.value, merchant, at)
      if (delivery !== undefined) yield* enqueueEvent(delivery)
      return finished.value
    })).pipe(
      // Counted once it committed, by the one writer whose conditional update ended it.
      Effect.tap((payment) =>
        Metric.increment(Metric.tagged(Metric.tagged(paymentsFinished, "environment", payment.environment), "status", payment.status)))
    ))

/**
 * Ends a pending payment; if it already ended (a double submit, a race with the sweeper, a gateway's
 * second word), that is fine: answer with what it became. Terminal states never change.
 */
export const finishOrReread = (trxId: string, ending: PaymentEnding) =>
  finishPayment(trxId, ending).pipe(
    Effect.catchTag("PaymentAlreadyFinal", () =>
      Effect.flatMap(PaymentRepository, (payments) => Effect.map(payments.findByTrxId(trxId), Option.getOrThrow)))
  )
