import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { isWalletAccount } from "../../core/ledger/account.js"
import { isBalanced, type JournalEntry, JournalEntryKind } from "../../core/ledger/journal.js"
import { Ledger, type RecordedEntry } from "../../core/ledger/ledger.js"
import { Amount } from "../../core/money/amount.js"
import { Environment } from "../../core/shared/environment.js"
import { Instant, now } from "../../core/shared/instant.js"
import { Int64 } from "./columns.js"
import { dbCall } from "./query.js"
import { int64, literal, serialId, table, text } from "./table.js"

/** An entry's header: what moved the money and when; its lines hold the amounts. */
export const journalEntriesTable = table("journal_entries", {
  id: serialId,
  kind: literal(JournalEntryKind),
  reference: text,
  created_at: int64
})

/** One account's share of an entry, with its book (environment and currency) so a book is read by index alone. */
export const journalLinesTable = table("journal_lines", {
  entry_id: int64,
  environment: literal(Environment),
  currency: text,
  account: text,
  amount: int64
})

const EntryId = Schema.Struct({ id: Int64 })
const Total = Schema.Struct({ total: Int64 })
const EntryRows = Schema.Array(Schema.Struct({
  id: Int64,
  kind: JournalEntryKind,
  reference: Schema.String,
  created_at: Int64,
  environment: Environment,
  currency: Schema.String,
  account: Schema.String,
  amount: Int64
}))
const AccountRows = Schema.Array(Schema.Struct({ account: Schema.String, balance: Int64 }))

/**
 * Writes an entry and its lines; the caller's transaction makes them one with the change they record.
 * An unbalanced entry would make every trial balance after it lie, so it is a defect, never written.
 */
export const writeJournalEntry = (sql: SqlClient.SqlClient, entry: JournalEntry, at: Instant) =>
  Effect.gen(function*() {
    if (!isBalanced(entry.lines)) return yield* Effect.dieMessage(`unbalanced journal entry ${entry.kind} ${entry.reference}`)
    if (entry.lines.length === 0) return
    const [header] = yield* sql`INSERT INTO journal_entries ${
      sql.insert(journalEntriesTable.values({ kind: entry.kind, reference: entry.reference, created_at: at }))
    } RETURNING id`
    const { id } = yield* Schema.decodeUnknown(EntryId)(header)
    yield* sql`INSERT INTO journal_lines ${
      sql.insert(entry.lines.map((line) =>
        journalLinesTable.values({
          entry_id: id,
          environment: entry.environment,
          currency: entry.currency,
          account: line.account,
          amount: line.amount
        })
      ))
    }`
  })

export const layer = Layer.effect(
  Ledger,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Ledger.of({
      record: (entry) =>
        Effect.gen(function*() {
          // A wallet's account moves only with its balance (WalletRepository.post), or the two would part.
          if (entry.lines.some((line) => isWalletAccount(line.account))) {
            return yield* Effect.dieMessage(`journal entry ${entry.kind} ${entry.reference} names a wallet: post it to the wallet`)
          }
          yield* sql.withTransaction(Effect.flatMap(now, (at) => writeJournalEntry(sql, entry, at)))
        }).pipe(dbCall),
      entriesOf: (reference, kinds) =>
        kinds.length === 0 ? Effect.succeed([]) : sql`SELECT e.id, e.kind, e.reference, e.created_at, l.environment, l.currency, l.account, l.amount
          FROM journal_entries e JOIN journal_lines l ON l.entry_id = e.id
          WHERE e.reference = ${reference} AND ${sql.in("e.kind", kinds)}
          ORDER BY e.id`.pipe(
          Effect.flatMap(Schema.decodeUnknown(EntryRows)),
          Effect.map((rows) => {
            const entries = new Map<bigint, { entry: Omit<RecordedEntry, "lines">; lines: Array<RecordedEntry["lines"][number]> }>()
            for (const row of rows) {
              const held = entries.get(row.id) ?? {
                entry: { id: Number(row.id), kind: row.kind, reference: row.reference, createdAt: Instant(row.created_at), environment: row.environment, currency: row.currency },
                lines: []
              }
              held.lines.push({ account: row.account, amount: Amount(row.amount) })
              entries.set(row.id, held)
            }
            // Lines in account order, as the trial balance lists them, whatever order the store returned them in.
            return [...entries.values()].map(({ entry, lines }): RecordedEntry => ({
              ...entry,
              lines: lines.sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))
            }))
          }),
          dbCall
        ),
      balances: (environment, currency) =>
        // PostgreSQL's SUM over BIGINT is NUMERIC; the cast keeps both dialects answering an integer.
        sql`SELECT account, CAST(SUM(amount) AS BIGINT) AS balance FROM journal_lines
          WHERE environment = ${environment} AND currency = ${currency} GROUP BY account`.pipe(
          Effect.flatMap(Schema.decodeUnknown(AccountRows)),
          // Ordered here, by code unit: PostgreSQL's ORDER BY follows the database's collation, SQLite's does not.
          Effect.map((rows) =>
            rows
              .map((row) => ({ account: row.account, balance: Amount(row.balance) }))
              .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))),
          dbCall
        ),
      balanceOf: (environment, currency, account) =>
        sql`SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM journal_lines
          WHERE environment = ${environment} AND currency = ${currency} AND account = ${account}`.pipe(
          Effect.flatMap((rows) => Schema.decodeUnknown(Total)(rows[0])),
          Effect.map((row) => Amount(row.total)),
          dbCall
        )
    })
  })
)
