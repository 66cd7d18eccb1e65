import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ZERO } from "../money/amount.js"
import type { Instant } from "../shared/instant.js"
import { now, plusSeconds } from "../shared/instant.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import type { Wallet } from "../wallets/wallet.js"
import { type Availability, splitBalance } from "./availability.js"
import { BalanceRepository } from "./balance-repository.js"
import { delayDaysIn, type PayoutSettings } from "./payout-settings.js"
import { PayoutSettingsRepository } from "./payout-settings-repository.js"

const DAY_SECONDS = 86_400

export interface WalletAvailability extends Availability {
  /** When the earliest pending payment's net becomes available; null when nothing is pending. */
  readonly nextAvailableAt: Instant | null
}

/**
 * What of a wallet may leave at `at`: its balance less the net of payments completed within the
 * merchant's payout delay. The one place funds are judged available (balances, payouts, automatic
 * payouts all ask it), so a `balance.available` event belongs where this changes its answer.
 */
export const walletAvailability = (wallet: Wallet, settings: PayoutSettings, at: Instant) =>
  Effect.gen(function*() {
    const delay = delayDaysIn(settings, wallet.environment)
    if (delay === 0) return { ...splitBalance(wallet.balance, ZERO), nextAvailableAt: null } satisfies WalletAvailability
    const book = { merchantId: wallet.merchantId, environment: wallet.environment, currency: wallet.currency }
    const recent = yield* (yield* BalanceRepository).recentNet(book, plusSeconds(at, -delay * DAY_SECONDS))
    const split = splitBalance(wallet.balance, recent.net)
    return {
      ...split,
      nextAvailableAt: split.pending > 0n && recent.earliest !== null ? plusSeconds(recent.earliest, delay * DAY_SECONDS) : null
    } satisfies WalletAvailability
  })

/**
 * The wallet locked (until the caller's transaction ends) and what of it is available now. Every
 * payment credit and payout debit takes the same row lock, so between this read and the caller's
 * debit neither balance nor pending part can move: concurrent payouts on any host can never
 * together take more than is available. Call it inside a transaction.
 */
export const lockedAvailability = (wallet: Wallet) =>
  Effect.gen(function*() {
    const locked = Option.getOrElse(yield* (yield* WalletRepository).findForUpdate(wallet.id), () => wallet)
    const settings = yield* (yield* PayoutSettingsRepository).get(wallet.merchantId)
    return yield* walletAvailability(locked, settings, yield* now)
  })
