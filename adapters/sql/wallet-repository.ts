import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { Environment } from "../../core/shared/environment.js"
import { Amount, MAX_BALANCE } from "../../core/money/amount.js"
import { WalletId, MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import {
  BalanceOverflow,
  InsufficientBalance,
  LedgerEntryKind,
  mayOverdraw,
  WalletExists,
  WalletNotFound,
  type LedgerEntry,
  type LedgerEntryWithPayment,
  type Wallet
} from "../../core/wallets/wallet.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { movementLines, movementOfPosting } from "../../core/ledger/movements.js"
import { flag, Int64, nullable as nullableValue, SafeInt, textValue } from "./columns.js"
import { writeJournalEntry } from "./ledger-repository.js"
import { DirectReads, readRows } from "./direct-reads.js"
import { dbCall } from "./query.js"
import { rowDecoder, tableRows } from "./row-mapper.js"
import { boolean, int64, literal, nullable, safeInt, serialId, table, text } from "./table.js"

export const walletsTable = table("wallets", {
  id: serialId,
  merchant_id: safeInt,
  currency: text,
  environment: literal(Environment),
  balance: int64,
  active: boolean,
  created_at: int64,
  updated_at: int64
})

export const ledgerEntriesTable = table("ledger_entries", {
  id: serialId,
  wallet_id: safeInt,
  kind: literal(LedgerEntryKind),
  delta: int64,
  balance_after: int64,
  reference: text,
  memo: nullable(text),
  created_at: int64
})

const decodeSum = Schema.decodeUnknown(Schema.Struct({ total: Schema.NullOr(Int64) }))

const UpdatedWallet = Schema.Struct({ balance: Int64, merchant_id: SafeInt, currency: Schema.String, environment: Environment })

const toWallet = (row: typeof walletsTable.Row.Type): Wallet => ({
  id: WalletId(row.id),
  merchantId: MerchantId(row.merchant_id),
  currency: row.currency,
  environment: row.environment,
  balance: Amount(row.balance),
  active: row.active,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

const toEntry = (row: typeof ledgerEntriesTable.Row.Type): LedgerEntry => ({
  id: row.id,
  walletId: WalletId(row.wallet_id),
  kind: row.kind,
  delta: Amount(row.delta),
  balanceAfter: Amount(row.balance_after),
  reference: row.reference,
  memo: row.memo,
  createdAt: Instant(row.created_at)
})

const wallets = tableRows(walletsTable, toWallet)
const entries = tableRows(ledgerEntriesTable, toEntry)
// Statements and their CSV read these by the thousand: the table's plain readers, not a Schema decode per row.
const paymentTrxIdValue = nullableValue(textValue)
const entriesWithPayment = rowDecoder((row): LedgerEntryWithPayment => ({
  ...toEntry(ledgerEntriesTable.read(row)),
  paymentTrxId: paymentTrxIdValue(row["payment_trx_id"])
}))

export const layer = Layer.effect(
  WalletRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const read = readRows(yield* DirectReads)

    // A credit and a reserve held or released name their payment; a refund debit names its refund, and a dispute's posting its dispute, whose row names the payment.
    // The payment is looked up per entry shown (a subquery by key), never joined: with joins PostgreSQL
    // chose to hash every refund of the store for each page of the statement, and its CSV read a
    // million entries at 2,000 a second. Read through the store's direct reader: statements and
    // their CSV read thousands of rows at a time, and never inside a transaction of their own.
    const withPayment = (where: Statement.Fragment, order: "ASC" | "DESC", limit: number) =>
      read(sql`SELECT le.*, CASE
          WHEN le.kind IN ('payment_credit', 'reserve_hold', 'reserve_release') THEN le.reference
          WHEN le.kind = 'refund_debit' THEN (SELECT r.payment_trx_id FROM refunds r WHERE r.refund_trx_id = le.reference)
          WHEN le.kind IN ('dispute_debit', 'dispute_return') THEN (SELECT d.payment_trx_id FROM disputes d WHERE d.id = le.reference)
          ELSE NULL END AS payment_trx_id
        FROM ledger_entries le
        WHERE ${where} ORDER BY le.id ${sql.literal(order)} LIMIT ${limit}`).pipe(Effect.flatMap(entriesWithPayment.all))

    const findById = (id: WalletId) => sql`SELECT * FROM wallets WHERE id = ${id}`.pipe(Effect.flatMap(wallets.first), dbCall)

    return WalletRepository.of({
      create: (wallet) =>
        Effect.gen(function*() {
          const at = yield* now
          const rows = yield* sql`INSERT INTO wallets ${
            sql.insert(walletsTable.values({
              merchant_id: wallet.merchantId,
              currency: wallet.currency,
              environment: wallet.environment,
              balance: 0n,
              active: true,
              created_at: at,
              updated_at: at
            }))
          } ON CONFLICT (merchant_id, currency, environment) DO NOTHING RETURNING *`
          if (rows.length === 0) return yield* new WalletExists({ currency: wallet.currency, environment: wallet.environment })
          return yield* wallets.one(rows)
        }).pipe(dbCall),
      findById,
      findForUpdate: (id) =>
        sql.onDialectOrElse({
          pg: () => sql`SELECT * FROM wallets WHERE id = ${id} FOR UPDATE`,
          orElse: () => sql`SELECT * FROM wallets WHERE id = ${id}`
        }).pipe(Effect.flatMap(wallets.first), dbCall),
      find: (merchantId, currency, environment) =>
        sql`SELECT * FROM wallets WHERE merchant_id = ${merchantId} AND currency = ${currency} AND environment = ${environment}`.pipe(
          Effect.flatMap(wallets.first),
          dbCall
        ),
      listByMerchant: (merchantId) =>
        sql`SELECT * FROM wallets WHERE merchant_id = ${merchantId} ORDER BY id`.pipe(
          Effect.flatMap(wallets.all),
          dbCall
        ),
      setActive: (id, active) =>
        Effect.flatMap(now, (at) =>
          sql`UPDATE wallets SET active = ${flag(active)}, updated_at = ${at} WHERE id = ${id} RETURNING *`).pipe(
          Effect.flatMap(wallets.first),
          dbCall
        ),
      post: (posting) =>
        sql.withTransaction(
          Effect.gen(function*() {
            const at = yield* now
            // The limit is part of the UPDATE's own WHERE, so the row lock (PostgreSQL) or the single
            // writer (SQLite) makes check and change one step. Written so neither side can overflow.
            // Only a dispute's debit may go below zero (a debt later payments recover); every other
            // debit keeps the balance at or above zero.
            const withinLimit = posting.delta >= 0n
              ? sql`balance <= ${MAX_BALANCE - posting.delta}`
              : mayOverdraw(posting)
              ? sql`balance >= ${-MAX_BALANCE - posting.delta}`
              : sql`balance >= ${-posting.delta}`
            const updated = yield* sql`UPDATE wallets SET balance = balance + ${posting.delta}, updated_at = ${at}
              WHERE id = ${posting.walletId} AND ${withinLimit} RETURNING balance, merchant_id, currency, environment`
            if (updated.length === 0) {
              const exists = yield* sql`SELECT id FROM wallets WHERE id = ${posting.walletId}`
              if (exists.length === 0) return yield* new WalletNotFound({ walletId: posting.walletId })
              return yield* posting.delta >= 0n
                ? new BalanceOverflow({ walletId: posting.walletId })
                : new InsufficientBalance({ walletId: posting.walletId })
            }
            const wallet = yield* Schema.decodeUnknown(UpdatedWallet)(updated[0])
            const balanceAfter = wallet.balance
            // The balance is the ledger's projection: its entry is written in the same transaction,
            // in the wallet's own book, so the two can never part.
            const movement = movementOfPosting(posting, MerchantId(wallet.merchant_id))
            yield* writeJournalEntry(sql, {
              kind: movement.kind,
              environment: wallet.environment,
              currency: wallet.currency,
              reference: posting.reference,
              lines: movementLines(movement)
            }, at)
            const rows = yield* sql`INSERT INTO ledger_entries ${
              sql.insert(ledgerEntriesTable.values({
                wallet_id: posting.walletId,
                kind: posting.kind,
                delta: posting.delta,
                balance_after: balanceAfter,
                reference: posting.reference,
                memo: posting.memo ?? null,
                created_at: at
              }))
            } RETURNING *`
            return yield* entries.one(rows)
          })
        ).pipe(dbCall),
      ledger: (walletId) =>
        sql`SELECT * FROM ledger_entries WHERE wallet_id = ${walletId} ORDER BY id`.pipe(
          Effect.flatMap(entries.all),
          dbCall
        ),
      ledgerBefore: (walletId, { beforeId, limit }) =>
        withPayment(beforeId === undefined ? sql`le.wallet_id = ${walletId}` : sql`le.wallet_id = ${walletId} AND le.id < ${beforeId}`, "DESC", limit),
      ledgerAfter: (walletId, { afterId, limit }) => withPayment(sql`le.wallet_id = ${walletId} AND le.id > ${afterId}`, "ASC", limit),
      ledgerSum: (walletId) =>
        // PostgreSQL's SUM over BIGINT is NUMERIC; the cast keeps both dialects answering an integer.
        sql`SELECT CAST(COALESCE(SUM(delta), 0) AS BIGINT) AS total FROM ledger_entries WHERE wallet_id = ${walletId}`.pipe(
          Effect.flatMap((rows) => decodeSum(rows[0])),
          Effect.map((row) => Amount(row.total ?? 0n)),
          dbCall
        )
    })
  })
)
