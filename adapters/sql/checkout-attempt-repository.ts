import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type CheckoutAttempt, CheckoutAttempts } from "../../core/payments/checkout-attempts.js"
import { GatewayId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { Int64 } from "./columns.js"
import { dbCall } from "./query.js"
import { rowMapper, tableRows } from "./row-mapper.js"
import { int64, nullable, safeInt, table, text, typed } from "./table.js"

export const checkoutAttemptsTable = table("checkout_attempts", {
  trx_id: text,
  gateway_id: safeInt,
  gateway_reference: nullable(text),
  began_at: int64,
  next_sync_at: nullable(int64),
  sync_count: typed(safeInt, "integer"),
  declined_at: nullable(int64)
})

const toAttempt = (row: typeof checkoutAttemptsTable.Row.Type): CheckoutAttempt => ({
  trxId: row.trx_id,
  gatewayId: GatewayId(row.gateway_id),
  gatewayReference: row.gateway_reference,
  beganAt: Instant(row.began_at),
  nextSyncAt: row.next_sync_at === null ? null : Instant(row.next_sync_at),
  syncCount: row.sync_count,
  declinedAt: row.declined_at === null ? null : Instant(row.declined_at)
})

const attempts = tableRows(checkoutAttemptsTable, toAttempt)

const dueSyncs = rowMapper(Schema.Struct({ ...checkoutAttemptsTable.Row.fields, status: Schema.String, expires_at: Int64 }), (row) => ({
  attempt: toAttempt(row),
  paymentPending: row.status === "pending",
  paymentExpiresAt: Instant(row.expires_at)
}))

export const layer = Layer.effect(
  CheckoutAttempts,
  Effect.map(SqlClient.SqlClient, (sql) =>
    CheckoutAttempts.of({
      begin: (trxId, gatewayId, at, nextSyncAt) =>
        sql`INSERT INTO checkout_attempts ${
          sql.insert(checkoutAttemptsTable.values({
            trx_id: trxId, gateway_id: gatewayId, gateway_reference: null, began_at: at, next_sync_at: nextSyncAt, sync_count: 0, declined_at: null
          }))
        } ON CONFLICT (trx_id, gateway_id) DO UPDATE SET next_sync_at = COALESCE(checkout_attempts.next_sync_at, excluded.next_sync_at), declined_at = NULL`.pipe(
          Effect.asVoid,
          dbCall
        ),
      setReference: (trxId, gatewayId, reference) =>
        sql`UPDATE checkout_attempts SET gateway_reference = ${reference} WHERE trx_id = ${trxId} AND gateway_id = ${gatewayId}`.pipe(
          Effect.asVoid,
          dbCall
        ),
      find: (trxId, gatewayId) =>
        sql`SELECT * FROM checkout_attempts WHERE trx_id = ${trxId} AND gateway_id = ${gatewayId}`.pipe(Effect.flatMap(attempts.first), dbCall),
      listForPayment: (trxId) =>
        sql`SELECT * FROM checkout_attempts WHERE trx_id = ${trxId} ORDER BY began_at, gateway_id`.pipe(Effect.flatMap(attempts.all), dbCall),
      listDueSyncs: (now, limit) =>
        sql`SELECT a.*, p.status, p.expires_at FROM checkout_attempts a JOIN payments p ON p.trx_id = a.trx_id
            WHERE a.next_sync_at IS NOT NULL AND a.next_sync_at <= ${now}
            ORDER BY a.next_sync_at, a.trx_id LIMIT ${limit}`.pipe(Effect.flatMap(dueSyncs.all), dbCall),
      claimSync: (trxId, gatewayId, expected, next) =>
        sql`UPDATE checkout_attempts SET next_sync_at = ${next}, sync_count = sync_count + 1
            WHERE trx_id = ${trxId} AND gateway_id = ${gatewayId} AND next_sync_at = ${expected}
            RETURNING trx_id`.pipe(Effect.map((rows) => rows.length > 0), dbCall),
      recordDecline: (trxId, gatewayId, at) =>
        sql`UPDATE checkout_attempts SET declined_at = ${at}, next_sync_at = NULL WHERE trx_id = ${trxId} AND gateway_id = ${gatewayId}`.pipe(
          Effect.asVoid,
          dbCall
        ),
      stopSyncs: (trxId) =>
        sql`UPDATE checkout_attempts SET next_sync_at = NULL WHERE trx_id = ${trxId} AND next_sync_at IS NOT NULL`.pipe(Effect.asVoid, dbCall)
    }))
)
