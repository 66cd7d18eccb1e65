import * as Effect from "effect/Effect"
import { trialBalance } from "../../../core/ledger/trial-balance.js"
import { jsonAmount } from "../contract/json-codec.js"
import { trialBalanceQuery } from "../contract/ledger-parameters.js"
import * as Resources from "../contract/ledger-resources.js"
import { endpoint } from "../endpoint/endpoint.js"

const trialBalanceOfBook = endpoint({
  method: "get",
  path: "/admin/v1/ledger/trial-balance",
  operationId: "getTrialBalance",
  summary: "The trial balance of one book",
  description: "Every account of the book (environment and currency) with its balance, debit positive and credit negative, and their sum: zero.",
  tag: "Admin: ledger",
  security: "admin",
  query: trialBalanceQuery,
  success: { status: 200, description: "The book's accounts and their sum.", schema: Resources.TrialBalance },
  handler: (query) =>
    Effect.map(trialBalance(query.environment, query.currency), (book) => ({
      data: {
        accounts: book.accounts.map(({ account, balance }) => ({ account, balance: jsonAmount(balance) })),
        sum: jsonAmount(book.sum)
      }
    }))
})

/** docs/admin-api.md, ledger. */
export const adminLedgerEndpoints = [trialBalanceOfBook] as const
