import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Environment } from "../../core/shared/environment.js"
import { Amount } from "../../core/money/amount.js"
import { RefundReferenceUsed, type Refund } from "../../core/refunds/refund.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"
import { keysetAfter } from "./keyset.js"

export const refundsTable = table("refunds", {
  refund_trx_id: text,
  payment_trx_id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  amount: int64,
  currency: text,
  reason: nullable(text),
  ref_refund: nullable(text),
  total_refunded: int64,
  remaining_refund: int64,
  created_at: int64
})

const toRefund = (row: typeof refundsTable.Row.Type): Refund => ({
  refundTrxId: row.refund_trx_id,
  paymentTrxId: row.payment_trx_id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  amount: Amount(row.amount),
  currency: row.currency,
  reason: row.reason,
  refRefund: row.ref_refund,
  totalRefunded: Amount(row.total_refunded),
  remainingRefund: Amount(row.remaining_refund),
  createdAt: Instant(row.created_at)
})

const refunds = tableRows(refundsTable, toRefund)

export const layer = Layer.effect(
  RefundRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RefundRepository.of({
      insert: (refund) =>
        Effect.gen(function*() {
          const at = yield* now
          const rows = yield* sql`INSERT INTO refunds ${
            sql.insert(refundsTable.values({
              refund_trx_id: refund.refundTrxId,
              payment_trx_id: refund.paymentTrxId,
              merchant_id: refund.merchantId,
              environment: refund.environment,
              amount: refund.amount,
              currency: refund.currency,
              reason: refund.reason,
              ref_refund: refund.refRefund,
              total_refunded: refund.totalRefunded,
              remaining_refund: refund.remainingRefund,
              created_at: at
            }))
          } ON CONFLICT (payment_trx_id, ref_refund) DO NOTHING RETURNING *`
          if (rows.length === 0) {
            return yield* new RefundReferenceUsed({ paymentTrxId: refund.paymentTrxId, refRefund: refund.refRefund ?? "" })
          }
          return yield* refunds.one(rows)
        }).pipe(dbCall),
      findByReference: (paymentTrxId, refRefund) =>
        sql`SELECT * FROM refunds WHERE payment_trx_id = ${paymentTrxId} AND ref_refund = ${refRefund}`.pipe(
          Effect.flatMap(refunds.first),
          dbCall
        ),
      listForPayment: (paymentTrxId) =>
        sql`SELECT * FROM refunds WHERE payment_trx_id = ${paymentTrxId} ORDER BY created_at, refund_trx_id`.pipe(
          Effect.flatMap(refunds.all),
          dbCall
        ),
      list: (query) =>
        sql`SELECT * FROM refunds WHERE ${
          sql.and([
            sql`merchant_id = ${query.merchantId}`,
            sql`environment = ${query.environment}`,
            ...(query.paymentTrxId !== undefined ? [sql`payment_trx_id = ${query.paymentTrxId}`] : []),
            ...(query.since !== undefined ? [sql`created_at >= ${query.since}`] : []),
            ...(query.until !== undefined ? [sql`created_at < ${query.until}`] : []),
            ...(query.before !== undefined
              ? [keysetAfter(sql, "refund_trx_id", query.before)]
              : [])
          ])
        } ORDER BY created_at DESC, refund_trx_id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(refunds.all), dbCall)
    })
  })
)
