import * as Effect from "effect/Effect"
import type { MerchantScope } from "../../../../core/merchants/merchant-scope.js"
import type { Amount } from "../../../../core/money/amount.js"
import { merchantBalances } from "../../../../core/wallets/merchant-balances.js"

/** What a payout can take in one currency now. */
export interface PayableBalance {
  readonly currency: string
  readonly available: Amount
}

/**
 * The one place the Payouts pages learn what a payout can take, by currency: today the wallet's
 * balance, which is what requestPayout debits. When balances are split (available, pending,
 * reserved), this reads `available` instead and nothing else on the pages changes.
 */
export const payableBalances = (scope: MerchantScope) =>
  Effect.map(merchantBalances(scope), (wallets): ReadonlyArray<PayableBalance> =>
    wallets.map((wallet) => ({ currency: wallet.currency, available: wallet.balance })))
