import * as Effect from "effect/Effect"
import { payoutsInTransitAccount } from "../ledger/account.js"
import { Ledger } from "../ledger/ledger.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { Amount } from "../money/amount.js"
import type { Instant } from "../shared/instant.js"
import { now } from "../shared/instant.js"
import { merchantBalances } from "../wallets/merchant-balances.js"
import type { Wallet } from "../wallets/wallet.js"
import { BalanceRepository } from "./balance-repository.js"
import type { PayoutSettings } from "./payout-settings.js"
import { PayoutSettingsRepository } from "./payout-settings-repository.js"
import { walletAvailability } from "./wallet-availability.js"

/** One wallet's balance and what it is made of. */
export interface WalletBalance {
  readonly wallet: Wallet
  /** What a payout may take now. */
  readonly available: Amount
  /** Recent payments' net, payable once the payout delay has passed. */
  readonly pending: Amount
  /** Held by the rolling reserve, outside the wallet until released. */
  readonly reserved: Amount
  /** Asked for as payouts and not yet paid, failed or rejected. */
  readonly inPayouts: Amount
  readonly nextAvailableAt: Instant | null
}

/** One wallet split into available, pending, reserved and in payouts at `at`: what GET /api/v1/balances and `balance.available` show. */
export const walletBalance = (wallet: Wallet, settings: PayoutSettings, at: Instant) =>
  Effect.gen(function*() {
    const book = { merchantId: wallet.merchantId, environment: wallet.environment, currency: wallet.currency }
    const availability = yield* walletAvailability(wallet, settings, at)
    // The account is credit-normal (negative while money is on its way): the amount is its opposite.
    const inTransit = yield* (yield* Ledger).balanceOf(wallet.environment, wallet.currency, payoutsInTransitAccount(wallet.merchantId))
    return {
      wallet,
      available: availability.available,
      pending: availability.pending,
      reserved: yield* (yield* BalanceRepository).reserved(book),
      inPayouts: Amount(-inTransit),
      nextAvailableAt: availability.nextAvailableAt
    } satisfies WalletBalance
  })

/** The caller's wallets in its environment, by currency, each split into available, pending, reserved and in payouts. */
export const merchantBalanceSheet = (scope: MerchantScope) =>
  Effect.gen(function*() {
    const wallets = yield* merchantBalances(scope)
    const settings = yield* (yield* PayoutSettingsRepository).get(scope.merchant.id)
    const at = yield* now
    return yield* Effect.forEach(wallets, (wallet) => walletBalance(wallet, settings, at))
  })
