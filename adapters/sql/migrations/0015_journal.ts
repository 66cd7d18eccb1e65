import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { now } from "../../../core/shared/instant.js"
import { runDdl } from "./dialect-ddl.js"

/**
 * The double-entry journal (core/ledger): an entry's header and its lines, each line in its book
 * (environment and currency) so the trial balance of a book reads one index range.
 *
 * The ledger begins with what the wallets hold: each wallet with a balance gets one opening entry,
 * its account credited with the balance against platform:opening-balances, so an upgraded store's
 * books sum to zero and each wallet's account is minus its balance from the first day. The account
 * names are core/ledger/account.ts's, spelled in SQL here once (the opening-entries tests hold them
 * to it). The opening entry of wallet N is entry N: the table is new, so the ids are free, and the
 * lines need no search for their header.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* runDdl([
    `CREATE TABLE journal_entries (
      id {{id}},
      kind TEXT NOT NULL,
      reference TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE journal_lines (
      entry_id BIGINT NOT NULL REFERENCES journal_entries (id),
      environment TEXT NOT NULL,
      currency TEXT NOT NULL,
      account TEXT NOT NULL,
      amount BIGINT NOT NULL,
      PRIMARY KEY (entry_id, account)
    )`,
    // The trial balance: a book's lines by account, amounts in the index itself.
    `CREATE INDEX journal_lines_book ON journal_lines (environment, currency, account, amount)`
  ])
  const at = yield* now
  yield* sql`INSERT INTO journal_entries (id, kind, reference, created_at)
    SELECT id, 'opening', 'wallet:' || id, ${at} FROM wallets WHERE balance <> 0`
  yield* sql`INSERT INTO journal_lines (entry_id, environment, currency, account, amount)
    SELECT id, environment, currency, 'merchant:' || merchant_id || ':wallet', -balance FROM wallets WHERE balance <> 0`
  yield* sql`INSERT INTO journal_lines (entry_id, environment, currency, account, amount)
    SELECT id, environment, currency, 'platform:opening-balances', balance FROM wallets WHERE balance <> 0`
  // An identity given explicit values does not move its sequence on PostgreSQL: the next entry would take id 1.
  yield* sql.onDialectOrElse({
    pg: () => sql`SELECT setval(pg_get_serial_sequence('journal_entries', 'id'), (SELECT COALESCE(MAX(id), 0) + 1 FROM journal_entries), false)`,
    orElse: () => Effect.void
  })
})
