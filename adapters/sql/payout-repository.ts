import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Amount } from "../../core/money/amount.js"
import { PayoutStatus } from "../../core/payouts/payout.js"
import { PayoutRepository } from "../../core/payouts/payout-repository.js"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"
import { keysetAfter } from "./keyset.js"

export const payoutsTable = table("payouts", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  currency: text,
  amount: int64,
  destination_id: text,
  status: literal(PayoutStatus),
  reason: nullable(text),
  reference: nullable(text),
  created_at: int64,
  updated_at: int64,
  rail: nullable(text),
  approved_at: nullable(int64)
})

const payouts = tableRows(payoutsTable, (row) => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  currency: row.currency,
  amount: Amount(row.amount),
  destinationId: row.destination_id,
  status: row.status,
  reason: row.reason,
  reference: row.reference,
  rail: row.rail,
  approvedAt: row.approved_at === null ? null : Instant(row.approved_at),
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
}))

export const layer = Layer.effect(
  PayoutRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    PayoutRepository.of({
      insert: (payout) =>
        sql`INSERT INTO payouts ${sql.insert(payoutsTable.values({
          id: payout.id,
          merchant_id: payout.merchantId,
          environment: payout.environment,
          currency: payout.currency,
          amount: payout.amount,
          destination_id: payout.destinationId,
          status: payout.status,
          reason: payout.reason,
          reference: payout.reference,
          created_at: payout.createdAt,
          updated_at: payout.updatedAt,
          rail: payout.rail,
          approved_at: payout.approvedAt
        }))}`.pipe(Effect.asVoid, dbCall),
      findScoped: (merchantId, environment, id) =>
        sql`SELECT * FROM payouts WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
          Effect.flatMap(payouts.first),
          dbCall
        ),
      findForUpdate: (id) =>
        sql.onDialectOrElse({
          pg: () => sql`SELECT * FROM payouts WHERE id = ${id} FOR UPDATE`,
          orElse: () => sql`SELECT * FROM payouts WHERE id = ${id}`
        }).pipe(Effect.flatMap(payouts.first), dbCall),
      transition: (id, from, change) =>
        sql`UPDATE payouts SET status = ${change.status}, reason = ${change.reason}, reference = ${change.reference}, updated_at = ${change.at}${
          change.rail !== undefined ? sql`, rail = ${change.rail}, approved_at = ${change.at}` : sql``
        }
          WHERE id = ${id} AND status = ${from} RETURNING *`.pipe(Effect.flatMap(payouts.first), dbCall),
      listApproved: (query) =>
        sql`SELECT * FROM payouts WHERE status = 'approved' AND approved_at >= ${query.from} AND approved_at < ${query.until}
          AND rail = ${query.rail} AND environment = ${query.environment} AND currency = ${query.currency}
          ORDER BY approved_at, id`.pipe(Effect.flatMap(payouts.all), dbCall),
      list: (query) =>
        sql`SELECT * FROM payouts WHERE ${
          sql.and([
            ...(query.merchantId !== undefined ? [sql`merchant_id = ${query.merchantId}`] : []),
            ...(query.environment !== undefined ? [sql`environment = ${query.environment}`] : []),
            ...(query.status !== undefined ? [sql`status = ${query.status}`] : []),
            ...(query.since !== undefined ? [sql`created_at >= ${query.since}`] : []),
            ...(query.until !== undefined ? [sql`created_at < ${query.until}`] : []),
            ...(query.before !== undefined
              ? [keysetAfter(sql, "id", query.before)]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(payouts.all), dbCall)
    }))
)
