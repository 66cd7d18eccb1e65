import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { runDdl } from "./dialect-ddl.js"

/**
 * Disputes, each merchant's dispute fee, and wallets that may go below zero: a dispute is recorded
 * whatever the wallet holds (its debt recovered from later payments), so wallets.balance loses the
 * CHECK (>= 0) of 0001. Every other debit still refuses to go below zero in its own UPDATE
 * (adapters/sql/wallet-repository.ts), which now carries that rule alone.
 */
const disputes = runDdl([
  `CREATE TABLE disputes (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    payment_trx_id TEXT NOT NULL REFERENCES payments (trx_id),
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount > 0),
    fee BIGINT NOT NULL CHECK (fee >= 0),
    reason TEXT NOT NULL,
    status TEXT NOT NULL,
    evidence_due_by BIGINT NOT NULL,
    evidence_text TEXT,
    evidence_files TEXT NOT NULL,
    gateway_id BIGINT REFERENCES gateways (id),
    gateway_dispute_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (gateway_id, gateway_dispute_id)
  )`,
  // The merchant's list, newest first; the operator's list by status; a payment's disputes (what they hold of it).
  `CREATE INDEX disputes_by_merchant ON disputes (merchant_id, environment, created_at, id)`,
  `CREATE INDEX disputes_by_status ON disputes (status, created_at, id)`,
  `CREATE INDEX disputes_by_payment ON disputes (payment_trx_id)`,
  `ALTER TABLE merchants ADD COLUMN dispute_fee BIGINT NOT NULL DEFAULT 0`
])

/**
 * SQLite cannot drop a CHECK in place: the table is rebuilt (sqlite.org/lang_altertable.html, "making
 * other kinds of table schema changes"). The migrations run in one transaction, where foreign keys
 * cannot be switched off, so their check is deferred to the commit instead: dropping wallets leaves
 * ledger_entries' rows without their wallet for a moment, and copying the rows back into the new
 * wallets, same ids, settles each before the commit checks. The AUTOINCREMENT counter is kept, so no
 * id is handed out twice. wallets has no index but its UNIQUE key, declared again with the table.
 */
const rebuildWalletsOnSqlite = runDdl([
  `PRAGMA defer_foreign_keys = ON`,
  `CREATE TEMP TABLE wallets_before_0018 AS SELECT * FROM wallets`,
  `CREATE TEMP TABLE wallets_sequence_before_0018 AS SELECT seq FROM sqlite_sequence WHERE name = 'wallets'`,
  `DROP TABLE wallets`,
  `CREATE TABLE wallets (
    id {{id}},
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    currency TEXT NOT NULL,
    environment TEXT NOT NULL,
    balance BIGINT NOT NULL,
    active SMALLINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (merchant_id, currency, environment)
  )`,
  `INSERT INTO wallets (id, merchant_id, currency, environment, balance, active, created_at, updated_at)
    SELECT id, merchant_id, currency, environment, balance, active, created_at, updated_at FROM wallets_before_0018`,
  `UPDATE sqlite_sequence SET seq = (SELECT seq FROM wallets_sequence_before_0018) WHERE name = 'wallets'
    AND EXISTS (SELECT 1 FROM wallets_sequence_before_0018)`,
  `DROP TABLE wallets_before_0018`,
  `DROP TABLE wallets_sequence_before_0018`
])

/** PostgreSQL names a column's CHECK <table>_<column>_check; dropped by that name. */
const relaxWalletsOnPg = runDdl([`ALTER TABLE wallets DROP CONSTRAINT wallets_balance_check`])

export default Effect.zipRight(
  disputes,
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.onDialectOrElse({ pg: () => relaxWalletsOnPg, orElse: () => rebuildWalletsOnSqlite }))
)
