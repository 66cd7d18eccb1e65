import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { runDdl } from "./dialect-ddl.js"

/**
 * Invoice numbers (core/subscriptions/invoice-number.ts): gapless per merchant, environment and
 * calendar year (UTC) of issue, drawn from a counter row by one upsert that locks it until the
 * invoice's transaction ends, as webhook sequences are (0014). A transaction that rolls back takes
 * its draw with it, so no number is skipped; two transactions drawing at once get consecutive ones.
 *
 * Invoices issued before this migration are numbered here, oldest first, and the counters start
 * after them, so a store's series runs from 1 whatever its age. The text is written whole (not
 * recomputed from the counter on read) because the number printed on a document must never change.
 */
const ddl = runDdl([
  `CREATE TABLE invoice_number_counters (
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    year INTEGER NOT NULL,
    last_number BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, environment, year)
  )`,
  `ALTER TABLE subscription_invoices ADD COLUMN number TEXT`
])

/** Frozen here: the format of core/subscriptions/invoice-number.ts when this migration was written. */
const numberText = (year: number, n: number) => `INV-${year}-${String(n).padStart(6, "0")}`

const yearOf = (micros: unknown) => new Date(Number(BigInt(micros as string | number | bigint) / 1000n)).getUTCFullYear()

const backfill = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly id: string; readonly merchant_id: unknown; readonly environment: string; readonly created_at: unknown }>`
    SELECT i.id, s.merchant_id, s.environment, i.created_at FROM subscription_invoices i
    JOIN subscriptions s ON s.id = i.subscription_id
    ORDER BY i.created_at, i.subscription_id, i.sequence`
  const last = new Map<string, { merchantId: unknown; environment: string; year: number; n: number }>()
  for (const row of rows) {
    const year = yearOf(row.created_at)
    const key = `${String(row.merchant_id)}|${row.environment}|${year}`
    const counter = last.get(key) ?? { merchantId: row.merchant_id, environment: row.environment, year, n: 0 }
    counter.n += 1
    last.set(key, counter)
    yield* sql`UPDATE subscription_invoices SET number = ${numberText(year, counter.n)} WHERE id = ${row.id}`
  }
  for (const counter of last.values()) {
    yield* sql`INSERT INTO invoice_number_counters (merchant_id, environment, year, last_number)
      VALUES (${Number(counter.merchantId)}, ${counter.environment}, ${counter.year}, ${counter.n})`
  }
})

export default Effect.zipRight(ddl, backfill)
