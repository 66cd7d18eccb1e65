import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { type SavedMethod, SavedMethodRepository } from "../../core/subscriptions/saved-method.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, safeInt, table, text } from "./table.js"

export const savedMethodsTable = table("saved_methods", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  customer_email: text,
  gateway_id: safeInt,
  sealed_reference: text,
  brand: text,
  last4: text,
  exp_month: safeInt,
  exp_year: safeInt,
  created_at: int64
})

const methods = tableRows(savedMethodsTable, (row): SavedMethod => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  customerEmail: row.customer_email,
  gatewayId: row.gateway_id,
  sealedReference: row.sealed_reference,
  brand: row.brand,
  last4: row.last4,
  expMonth: row.exp_month,
  expYear: row.exp_year,
  createdAt: Instant(row.created_at)
}))

export const layer = Layer.effect(
  SavedMethodRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SavedMethodRepository.of({
      insert: (method) =>
        sql`INSERT INTO saved_methods ${
          sql.insert(savedMethodsTable.values({
            id: method.id,
            merchant_id: method.merchantId,
            environment: method.environment,
            customer_email: method.customerEmail,
            gateway_id: method.gatewayId,
            sealed_reference: method.sealedReference,
            brand: method.brand,
            last4: method.last4,
            exp_month: method.expMonth,
            exp_year: method.expYear,
            created_at: method.createdAt
          }))
        } RETURNING *`.pipe(Effect.flatMap(methods.one), dbCall),
      findById: (id) => sql`SELECT * FROM saved_methods WHERE id = ${id}`.pipe(Effect.flatMap(methods.first), dbCall)
    })))
