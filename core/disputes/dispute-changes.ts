import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { Ledger } from "../ledger/ledger.js"
import { movementLines } from "../ledger/movements.js"
import { Amount } from "../money/amount.js"
import { disputesOpened } from "../shared/metrics.js"
import type { StorageError } from "../shared/storage-error.js"
import type { BalanceOverflow, InsufficientBalance, WalletNotFound } from "../wallets/wallet.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import { publishAccountEvent } from "../webhooks/account-events.js"
import { type Dispute, type DisputeStatus, DisputeTransitionRefused } from "./dispute.js"
import { type DisputeChange, DisputeRepository } from "./dispute-repository.js"

const walletOf = (dispute: Dispute) =>
  Effect.flatMap(WalletRepository, (wallets) =>
    Effect.map(wallets.find(dispute.merchantId, dispute.currency, dispute.environment), (found) =>
      // A dispute is on a completed payment, whose completion credited this wallet.
      Option.getOrThrowWith(found, () => new Error(`dispute ${dispute.id}: the merchant has no ${dispute.currency} wallet`))))

/** A dispute's debit may overdraw and a return only credits: a refusal can only be a broken store. */
const posted = <A>(effect: Effect.Effect<A, InsufficientBalance | BalanceOverflow | WalletNotFound | StorageError>) =>
  effect.pipe(Effect.catchTags({
    InsufficientBalance: (error) => Effect.die(error),
    BalanceOverflow: (error) => Effect.die(error),
    WalletNotFound: (error) => Effect.die(error)
  }))

/** The merchant's event about the dispute as it now stands, in the change's transaction. */
const announce = (type: "dispute.created" | "dispute.updated" | "dispute.closed", dispute: Dispute) =>
  publishAccountEvent({ merchantId: dispute.merchantId, environment: dispute.environment, type, objectId: dispute.id, data: { kind: "dispute", dispute } })

/**
 * The one place a dispute is written, and its money moves with it, in the caller's transaction: every
 * change of a dispute's state comes through here (opened, evidence sent, updated by its gateway,
 * closed), so whatever must follow each change (its merchant's events) has one place to go.
 */
export const disputeOpened = (dispute: Dispute) =>
  Effect.gen(function*() {
    const wallet = yield* walletOf(dispute)
    // The amount and the fee leave the wallet at once, whatever it holds: the balance may go negative.
    yield* posted((yield* WalletRepository).post({
      walletId: wallet.id,
      kind: "dispute_debit",
      delta: Amount(-(dispute.amount + dispute.fee)),
      fee: dispute.fee,
      reference: dispute.id,
      memo: dispute.reason
    }))
    yield* (yield* DisputeRepository).insert(dispute)
    yield* announce("dispute.created", dispute)
    return dispute
  }).pipe(Effect.tap((dispute) => Metric.increment(Metric.tagged(disputesOpened, "environment", dispute.environment))))

/**
 * Moves a dispute from the status it was read in; closing it moves its hold: back to the wallet when
 * won, to the gateway when lost. Conditional on that status, so two closes racing move the money once.
 */
export const disputeMoved = (dispute: Dispute, change: DisputeChange) =>
  Effect.gen(function*() {
    const from: DisputeStatus = dispute.status
    const moved = yield* (yield* DisputeRepository).transition(dispute.id, from, change)
    if (Option.isNone(moved)) {
      return yield* new DisputeTransitionRefused({ status: from, message: "This dispute changed meanwhile; read it again." })
    }
    if (change.status === "won") {
      const wallet = yield* walletOf(dispute)
      yield* posted((yield* WalletRepository).post({ walletId: wallet.id, kind: "dispute_return", delta: dispute.amount, reference: dispute.id }))
    }
    if (change.status === "lost") {
      yield* (yield* Ledger).record({
        kind: "dispute_lost",
        environment: dispute.environment,
        currency: dispute.currency,
        reference: dispute.id,
        lines: movementLines({ kind: "dispute_lost", merchantId: dispute.merchantId, amount: dispute.amount })
      })
    }
    yield* announce(change.status === "won" || change.status === "lost" ? "dispute.closed" : "dispute.updated", moved.value)
    return moved.value
  })
