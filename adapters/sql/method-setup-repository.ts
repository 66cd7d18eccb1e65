import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { type MethodSetup, MethodSetupRepository } from "../../core/subscriptions/method-setup-repository.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"

export const methodSetupsTable = table("method_setups", {
  id: text,
  subscription_id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  gateway_id: safeInt,
  gateway_reference: nullable(text),
  saved_method_id: nullable(text),
  expires_at: int64,
  completed_at: nullable(int64),
  created_at: int64
})

const setups = tableRows(methodSetupsTable, (row): MethodSetup => ({
  id: row.id,
  subscriptionId: row.subscription_id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  gatewayId: row.gateway_id,
  gatewayReference: row.gateway_reference,
  savedMethodId: row.saved_method_id,
  expiresAt: Instant(row.expires_at),
  completedAt: row.completed_at === null ? null : Instant(row.completed_at),
  createdAt: Instant(row.created_at)
}))

export const layer = Layer.effect(
  MethodSetupRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    MethodSetupRepository.of({
      insert: (setup) =>
        sql`INSERT INTO method_setups ${
          sql.insert(methodSetupsTable.values({
            id: setup.id,
            subscription_id: setup.subscriptionId,
            merchant_id: setup.merchantId,
            environment: setup.environment,
            gateway_id: setup.gatewayId,
            gateway_reference: setup.gatewayReference,
            saved_method_id: setup.savedMethodId,
            expires_at: setup.expiresAt,
            completed_at: setup.completedAt,
            created_at: setup.createdAt
          }))
        } RETURNING *`.pipe(Effect.flatMap(setups.one), dbCall),
      findById: (id) => sql`SELECT * FROM method_setups WHERE id = ${id}`.pipe(Effect.flatMap(setups.first), dbCall),
      setReference: (id, gatewayReference) =>
        sql`UPDATE method_setups SET gateway_reference = ${gatewayReference} WHERE id = ${id}`.pipe(Effect.asVoid, dbCall),
      // The conditions are the single use: only the first return inside the session's time finds it open.
      complete: (id, savedMethodId, at) =>
        sql`UPDATE method_setups SET saved_method_id = ${savedMethodId}, completed_at = ${at}
          WHERE id = ${id} AND completed_at IS NULL AND expires_at > ${at}
          RETURNING *`.pipe(Effect.flatMap(setups.first), dbCall)
    }))
)
