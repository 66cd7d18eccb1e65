import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type PaymentFlag, PaymentFlags } from "../../core/payments/payment-flags.js"
import { GatewayId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"

const FlagReasonWord = Schema.Literal("amount_mismatch", "currency_mismatch", "reported_after_end")

export const paymentFlagsTable = table("payment_flags", {
  trx_id: text,
  gateway_id: nullable(safeInt),
  reason: literal(FlagReasonWord),
  detail: text,
  created_at: int64
})

const flags = tableRows(paymentFlagsTable, (row): PaymentFlag => ({
  trxId: row.trx_id,
  gatewayId: row.gateway_id === null ? null : GatewayId(row.gateway_id),
  reason: row.reason,
  detail: row.detail,
  createdAt: Instant(row.created_at)
}))

export const layer = Layer.effect(
  PaymentFlags,
  Effect.map(SqlClient.SqlClient, (sql) =>
    PaymentFlags.of({
      raise: (flag) =>
        sql`INSERT INTO payment_flags ${
          sql.insert(paymentFlagsTable.values({ trx_id: flag.trxId, gateway_id: flag.gatewayId, reason: flag.reason, detail: flag.detail, created_at: flag.createdAt }))
        } ON CONFLICT (trx_id, gateway_id, reason) DO NOTHING`.pipe(Effect.asVoid, dbCall),
      listForPayment: (trxId) =>
        sql`SELECT * FROM payment_flags WHERE trx_id = ${trxId} ORDER BY id`.pipe(Effect.flatMap(flags.all), dbCall),
      listRecent: (limit) => sql`SELECT * FROM payment_flags ORDER BY id DESC LIMIT ${limit}`.pipe(Effect.flatMap(flags.all), dbCall)
    }))
)
