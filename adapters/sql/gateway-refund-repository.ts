import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Amount } from "../../core/money/amount.js"
import { type GatewayRefund, GatewayRefunds } from "../../core/refunds/gateway-refund.js"
import { GatewayId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text, typed } from "./table.js"

const GatewayRefundStatusWord = Schema.Literal("pending", "succeeded", "failed")

export const gatewayRefundsTable = table("gateway_refunds", {
  refund_trx_id: text,
  payment_trx_id: text,
  gateway_id: safeInt,
  amount: int64,
  currency: text,
  idempotency_key: text,
  status: literal(GatewayRefundStatusWord),
  attempts: typed(safeInt, "integer"),
  next_attempt_at: nullable(int64),
  gateway_reference: nullable(text),
  message: nullable(text),
  created_at: int64,
  updated_at: int64
})

const gatewayRefunds = tableRows(gatewayRefundsTable, (row): GatewayRefund => ({
  refundTrxId: row.refund_trx_id,
  paymentTrxId: row.payment_trx_id,
  gatewayId: GatewayId(row.gateway_id),
  amount: Amount(row.amount),
  currency: row.currency,
  idempotencyKey: row.idempotency_key,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at === null ? null : Instant(row.next_attempt_at),
  gatewayReference: row.gateway_reference,
  message: row.message,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
}))

export const layer = Layer.effect(
  GatewayRefunds,
  Effect.map(SqlClient.SqlClient, (sql) =>
    GatewayRefunds.of({
      enqueue: (refund) =>
        sql`INSERT INTO gateway_refunds ${
          sql.insert(gatewayRefundsTable.values({
            refund_trx_id: refund.refundTrxId,
            payment_trx_id: refund.paymentTrxId,
            gateway_id: refund.gatewayId,
            amount: refund.amount,
            currency: refund.currency,
            idempotency_key: refund.idempotencyKey,
            status: refund.status,
            attempts: refund.attempts,
            next_attempt_at: refund.nextAttemptAt,
            gateway_reference: refund.gatewayReference,
            message: refund.message,
            created_at: refund.createdAt,
            updated_at: refund.updatedAt
          }))
        }`.pipe(Effect.asVoid, dbCall),
      listDue: (now, leaseNow, limit) =>
        sql`SELECT * FROM gateway_refunds WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ${now}
              AND (lease_until IS NULL OR lease_until <= ${leaseNow})
            ORDER BY next_attempt_at, refund_trx_id LIMIT ${limit}`.pipe(Effect.flatMap(gatewayRefunds.all), dbCall),
      claim: (refundTrxId, expected, leaseNow, leaseUntil) =>
        sql`UPDATE gateway_refunds SET lease_until = ${leaseUntil}
            WHERE refund_trx_id = ${refundTrxId} AND next_attempt_at = ${expected}
              AND (lease_until IS NULL OR lease_until <= ${leaseNow})
            RETURNING refund_trx_id`.pipe(Effect.map((rows) => rows.length > 0), dbCall),
      record: (refundTrxId, progress) =>
        sql`UPDATE gateway_refunds SET ${
          sql.update({
            status: progress.status,
            attempts: progress.attempts,
            next_attempt_at: progress.nextAttemptAt,
            gateway_reference: progress.gatewayReference,
            message: progress.message,
            lease_until: null,
            updated_at: progress.at
          })
        } WHERE refund_trx_id = ${refundTrxId}`.pipe(Effect.asVoid, dbCall),
      find: (refundTrxId) =>
        sql`SELECT * FROM gateway_refunds WHERE refund_trx_id = ${refundTrxId}`.pipe(Effect.flatMap(gatewayRefunds.first), dbCall),
      listForPayment: (paymentTrxId) =>
        sql`SELECT * FROM gateway_refunds WHERE payment_trx_id = ${paymentTrxId} ORDER BY created_at, refund_trx_id`.pipe(
          Effect.flatMap(gatewayRefunds.all),
          dbCall
        )
    }))
)
