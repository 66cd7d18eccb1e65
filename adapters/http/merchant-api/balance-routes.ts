import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { merchantBalanceSheet } from "../../../core/balances/balance-sheet.js"
import { Environment, Money } from "../contract/value-schemas.js"
import { endpoint } from "../endpoint/endpoint.js"
import { balanceJson } from "../response/balance-json.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

const Balance = Schema.Struct({
  currency_code: Schema.String,
  environment: Environment,
  balance: Money,
  active: Schema.Boolean.annotations({ description: "Whether payments in this currency can be received into it." }),
  available: Money.annotations({ description: "What a payout may take now: the balance less what is pending, never below 0." }),
  pending: Money.annotations({ description: "The net of payments completed within the payout delay, not yet payable (part of the balance)." }),
  reserved: Money.annotations({ description: "Held by the rolling reserve until released to the balance (not part of it)." }),
  in_payouts: Money.annotations({ description: "Asked for as payouts, not yet paid, failed or rejected (not part of the balance)." }),
  next_available_at: Schema.NullOr(Schema.String).annotations({
    description: "When the earliest pending funds become available (ISO 8601, UTC); null when nothing is pending."
  })
}).annotations({ identifier: "Balance", description: "One wallet of the merchant: its currency's balance and what it is made of." })

const Balances = Schema.Struct({ data: Schema.Array(Balance) }).annotations({
  identifier: "Balances",
  description: "The merchant's wallets in the environment of the request, by currency."
})

const balances = endpoint({
  method: "get",
  path: "/api/v1/balances",
  operationId: "listBalances",
  summary: "The merchant's wallet balances",
  description: "One entry per wallet in the environment of the request, ordered by currency code.",
  tag: "Wallets",
  security: "merchant",
  success: { status: 200, description: "The balances.", schema: Balances },
  handler: Effect.map(Effect.flatMap(CurrentMerchant, merchantBalanceSheet), (sheet) => ({ data: sheet.map(balanceJson) }))
})

export const balanceEndpoints = [balances] as const
