import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MerchantCurrencyRepository } from "../../core/merchants/currency-repository.js"
import { dbCall } from "./query.js"

export const layer = Layer.effect(
  MerchantCurrencyRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return MerchantCurrencyRepository.of({
      replace: (merchantId, currencyCodes) =>
        sql.withTransaction(
          Effect.gen(function*() {
            yield* sql`DELETE FROM merchant_currencies WHERE merchant_id = ${merchantId}`
            const distinct = [...new Set(currencyCodes)]
            if (distinct.length > 0) {
              yield* sql`INSERT INTO merchant_currencies ${
                sql.insert(distinct.map((code) => ({ merchant_id: merchantId, currency_code: code })))
              }`
            }
          })
        ).pipe(dbCall),
      list: (merchantId) =>
        sql<{ currency_code: string }>`SELECT currency_code FROM merchant_currencies WHERE merchant_id = ${merchantId} ORDER BY currency_code`.pipe(
          Effect.map((rows) => rows.map((row) => row.currency_code)),
          dbCall
        )
    })
  })
)
