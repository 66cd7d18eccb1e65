import * as Schema from "effect/Schema"
import { dataOf } from "./envelopes.js"
import { Money } from "./value-schemas.js"

/** One account of a book: its stable name (docs/decisions.md, the ledger) and balance, debit positive. */
export const AccountBalance = Schema.Struct({
  account: Schema.String,
  balance: Money
}).annotations({ identifier: "LedgerAccountBalance" })

export const TrialBalance = dataOf(
  Schema.Struct({ accounts: Schema.Array(AccountBalance), sum: Money }),
  "TrialBalance"
)
