import * as Effect from "effect/Effect"
import { merchantBalanceSheet } from "../../../../core/balances/balance-sheet.js"
import type { MerchantScope } from "../../../../core/merchants/merchant-scope.js"
import type { Amount } from "../../../../core/money/amount.js"

/** What a payout can take in one currency now. */
export interface PayableBalance {
  readonly currency: string
  readonly available: Amount
}

/**
 * The one place the Payouts pages learn what a payout can take, by currency: the balance sheet's
 * `available` (the balance less what is still pending), the figure requestPayout checks a payout
 * against, so the page never offers what the payout would be refused.
 */
export const payableBalances = (scope: MerchantScope) =>
  Effect.map(merchantBalanceSheet(scope), (sheet): ReadonlyArray<PayableBalance> =>
    sheet.map((balance) => ({ currency: balance.wallet.currency, available: balance.available })))
