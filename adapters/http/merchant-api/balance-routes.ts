import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { merchantBalances } from "../../../core/wallets/merchant-balances.js"
import { Environment, Money } from "../contract/value-schemas.js"
import { endpoint } from "../endpoint/endpoint.js"
import { jsonAmount } from "../contract/json-codec.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

const Balance = Schema.Struct({
  currency_code: Schema.String,
  environment: Environment,
  balance: Money,
  active: Schema.Boolean.annotations({ description: "Whether payments in this currency can be received into it." })
}).annotations({ identifier: "Balance", description: "One wallet of the merchant: its currency's balance." })

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
  handler: Effect.map(Effect.flatMap(CurrentMerchant, merchantBalances), (wallets) => ({
    data: wallets.map((wallet) => ({
      currency_code: wallet.currency,
      environment: wallet.environment,
      balance: jsonAmount(wallet.balance),
      active: wallet.active
    }))
  }))
})

export const balanceEndpoints = [balances] as const
