import * as Effect from "effect/Effect"
import { Amount } from "../money/amount.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import type { Environment } from "../shared/environment.js"
import { ValidationFailed } from "../shared/validation.js"
import { type AccountBalance, Ledger } from "./ledger.js"

export interface TrialBalance {
  readonly accounts: ReadonlyArray<AccountBalance>
  /** Zero in a sound ledger: added here from the balances shown, so a book that does not balance says so. */
  readonly sum: Amount
}

/** Every account of one book (environment and currency) with its balance, and their sum. */
export const trialBalance = (environment: Environment, currency: string) =>
  Effect.gen(function*() {
    if (!(yield* CurrencyCatalog).isKnown(currency)) {
      return yield* ValidationFailed.field("currency", `Unsupported currency code: ${currency}.`, "INVALID_CURRENCY")
    }
    const accounts = yield* (yield* Ledger).balances(environment, currency)
    return { accounts, sum: Amount(accounts.reduce((sum, account) => sum + account.balance, 0n)) } satisfies TrialBalance
  })
