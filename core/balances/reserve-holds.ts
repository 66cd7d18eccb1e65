import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { Amount } from "../money/amount.js"
import type { Instant } from "../shared/instant.js"
import { plusSeconds } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import type { Wallet } from "../wallets/wallet.js"
import { announceBalance } from "./balance-announcements.js"
import { BalanceRepository } from "./balance-repository.js"
import { holdsReserve } from "./payout-settings.js"
import { PayoutSettingsRepository } from "./payout-settings-repository.js"
import { reserveShare } from "./reserve.js"

const DAY_SECONDS = 86_400

/**
 * Holds the merchant's reserve share of a payment's net just credited to `wallet`, in the caller's
 * transaction: out of the wallet into its reserve hold (a ledger movement), released `reserve_days`
 * after the payment completed. Nothing when the merchant has no reserve.
 */
export const holdReserve = (wallet: Wallet, trxId: string, net: Amount, at: Instant) =>
  Effect.gen(function*() {
    const settings = yield* (yield* PayoutSettingsRepository).get(wallet.merchantId)
    if (!holdsReserve(settings)) return
    const amount = reserveShare(net, settings.reservePercent, yield* exponentOfHeld(wallet.currency))
    if (amount === 0n) return
    const held = yield* (yield* WalletRepository).post({ walletId: wallet.id, kind: "reserve_hold", delta: Amount(-amount), reference: trxId }).pipe(
      Effect.as(true),
      Effect.catchTags({
        // The net was credited a moment ago and the share is never more than it, so only a wallet that
        // was below zero before (a debt) refuses: paying the debt comes first, and nothing is held.
        InsufficientBalance: () => Effect.succeed(false),
        BalanceOverflow: Effect.die,
        WalletNotFound: Effect.die
      })
    )
    if (!held) return
    yield* (yield* BalanceRepository).hold({
      merchantId: wallet.merchantId,
      environment: wallet.environment,
      currency: wallet.currency,
      walletId: wallet.id,
      reference: trxId,
      amount,
      heldAt: at,
      releaseAt: plusSeconds(at, settings.reserveDays * DAY_SECONDS)
    })
  })

/**
 * Returns the holds whose time is up to their wallets, each in its own transaction: the hold is
 * marked released only if it was not already (so with hosts racing, one of them moves the money),
 * and the wallet credit is written with it, and `balance.available` announced with it. How many were released.
 */
export const releaseDueReserves = (at: Instant, limit: number) =>
  Effect.gen(function*() {
    const balances = yield* BalanceRepository
    const wallets = yield* WalletRepository
    const { withTransaction } = yield* Transactor
    const due = yield* balances.dueHolds(at, limit)
    let released = 0
    for (const hold of due) {
      const moved = yield* withTransaction(Effect.gen(function*() {
        if (!(yield* balances.markReleased(hold.id, at))) return false
        yield* wallets.post({ walletId: hold.walletId, kind: "reserve_release", delta: hold.amount, reference: hold.reference }).pipe(
          Effect.catchTags({ InsufficientBalance: Effect.die, BalanceOverflow: Effect.die, WalletNotFound: Effect.die })
        )
        const wallet = yield* wallets.findForUpdate(hold.walletId)
        if (Option.isSome(wallet)) yield* announceBalance(wallet.value, at)
        return true
      }))
      if (moved) released++
    }
    return released
  })
