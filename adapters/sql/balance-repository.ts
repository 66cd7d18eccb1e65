import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { BalanceRepository, type ReserveHold } from "../../core/balances/balance-repository.js"
import { Amount } from "../../core/money/amount.js"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId, WalletId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { Int64 } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, serialId, table, text } from "./table.js"

export const reserveHoldsTable = table("reserve_holds", {
  id: serialId,
  merchant_id: safeInt,
  environment: literal(Environment),
  currency: text,
  wallet_id: safeInt,
  reference: text,
  amount: int64,
  held_at: int64,
  release_at: int64,
  released_at: nullable(int64)
})

export const automaticPayoutsTable = table("automatic_payouts", {
  merchant_id: safeInt,
  environment: literal(Environment),
  currency: text,
  period: text,
  payout_id: text,
  created_at: int64
})

const holds = tableRows(reserveHoldsTable, (row): ReserveHold => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  currency: row.currency,
  walletId: WalletId(row.wallet_id),
  reference: row.reference,
  amount: Amount(row.amount),
  heldAt: Instant(row.held_at),
  releaseAt: Instant(row.release_at)
}))

const RecentRow = Schema.Struct({ total: Int64, earliest: Schema.NullOr(Int64) })
const TotalRow = Schema.Struct({ total: Int64 })
const TotalsRows = Schema.Array(Schema.Struct({ environment: Environment, currency: Schema.String, total: Int64 }))

export const layer = Layer.effect(
  BalanceRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    BalanceRepository.of({
      recentNet: (book, since) =>
        // PostgreSQL's SUM over BIGINT is NUMERIC; the cast keeps both dialects answering an integer.
        sql`SELECT CAST(COALESCE(SUM(p.net - COALESCE(h.amount, 0)), 0) AS BIGINT) AS total, MIN(p.completed_at) AS earliest
          FROM payments p LEFT JOIN reserve_holds h ON h.reference = p.trx_id
          WHERE p.merchant_id = ${book.merchantId} AND p.environment = ${book.environment} AND p.status = 'success'
            AND p.completed_at > ${since} AND p.currency = ${book.currency} AND p.net > 0`.pipe(
          Effect.flatMap((rows) => Schema.decodeUnknown(RecentRow)(rows[0])),
          Effect.map((row) => ({ net: Amount(row.total), earliest: row.earliest === null ? null : Instant(row.earliest) })),
          dbCall
        ),
      reserved: (book) =>
        sql`SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM reserve_holds
          WHERE merchant_id = ${book.merchantId} AND environment = ${book.environment} AND currency = ${book.currency}
            AND released_at IS NULL`.pipe(
          Effect.flatMap((rows) => Schema.decodeUnknown(TotalRow)(rows[0])),
          Effect.map((row) => Amount(row.total)),
          dbCall
        ),
      reservedTotals: sql`SELECT environment, currency, CAST(SUM(amount) AS BIGINT) AS total FROM reserve_holds
          WHERE released_at IS NULL GROUP BY environment, currency ORDER BY environment, currency`.pipe(
        Effect.flatMap(Schema.decodeUnknown(TotalsRows)),
        Effect.map((rows) => rows.map((row) => ({ environment: row.environment, currency: row.currency, amount: Amount(row.total) }))),
        dbCall
      ),
      hold: (hold) =>
        sql`INSERT INTO reserve_holds ${sql.insert(reserveHoldsTable.values({
          merchant_id: hold.merchantId,
          environment: hold.environment,
          currency: hold.currency,
          wallet_id: hold.walletId,
          reference: hold.reference,
          amount: hold.amount,
          held_at: hold.heldAt,
          release_at: hold.releaseAt,
          released_at: null
        }))}`.pipe(Effect.asVoid, dbCall),
      dueHolds: (at, limit) =>
        sql`SELECT * FROM reserve_holds WHERE released_at IS NULL AND release_at <= ${at}
          ORDER BY release_at, id LIMIT ${limit}`.pipe(Effect.flatMap(holds.all), dbCall),
      markReleased: (id, at) =>
        sql`UPDATE reserve_holds SET released_at = ${at} WHERE id = ${id} AND released_at IS NULL RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          dbCall
        ),
      periodTaken: (period) =>
        sql`SELECT payout_id FROM automatic_payouts WHERE merchant_id = ${period.merchantId}
          AND environment = ${period.environment} AND currency = ${period.currency} AND period = ${period.period}`.pipe(
          Effect.map((rows) => rows.length > 0),
          dbCall
        ),
      claimPeriod: (period, payoutId, at) =>
        sql`INSERT INTO automatic_payouts ${sql.insert(automaticPayoutsTable.values({
          merchant_id: period.merchantId,
          environment: period.environment,
          currency: period.currency,
          period: period.period,
          payout_id: payoutId,
          created_at: at
        }))} ON CONFLICT (merchant_id, environment, currency, period) DO NOTHING RETURNING payout_id`.pipe(
          Effect.map((rows) => rows.length > 0),
          dbCall
        )
    }))
)
