import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { Effect, type Layer, Schema, SchemaAST } from "effect"
import { expect } from "vitest"
import { auditLogTable } from "../audit-log.js"
import { checkoutAttemptsTable } from "../checkout-attempt-repository.js"
import { checkoutFrameAncestorsTable } from "../checkout-frame-repository.js"
import { customerPortalSessionsTable } from "../customer-portal-repository.js"
import { credentialsTable, retiredCredentialsTable } from "../credential-repository.js"
import { dashboardSessionsTable } from "../dashboard-session-repository.js"
import { gatewayRefundsTable } from "../gateway-refund-repository.js"
import { gatewaysTable } from "../gateway-repository.js"
import { idempotencyKeysTable } from "../idempotency-store.js"
import { merchantsTable } from "../merchant-repository.js"
import { merchantUsersTable, passwordLinksTable } from "../merchant-user-repository.js"
import { paymentFlagsTable } from "../payment-flag-repository.js"
import { paymentsTable } from "../payment-rows.js"
import { payoutDestinationsTable } from "../payout-destination-repository.js"
import { payoutsTable } from "../payout-repository.js"
import { payoutSettingsTable } from "../payout-settings-repository.js"
import { billingSettingsTable } from "../billing-settings-repository.js"
import { testClocksTable } from "../test-clock-repository.js"
import { savedMethodsTable } from "../saved-method-repository.js"
import { automaticPayoutsTable, balanceAnnouncementsTable, reserveHoldsTable } from "../balance-repository.js"
import { reconciliationLinesTable, reconciliationReportsTable } from "../reconciliation-repository.js"
import { disputesTable } from "../dispute-repository.js"
import { refundsTable } from "../refund-repository.js"
import { subscriptionInvoicesTable, subscriptionsTable } from "../subscription-repository.js"
import type { AnyTable, SqlType } from "../table.js"
import { webhookEndpointsTable } from "../webhook-endpoint-repository.js"
import { webhookAttemptsTable, webhookDeliveriesTable, webhookTargetsTable } from "../webhook-outbox.js"
import { ledgerEntriesTable, walletsTable } from "../wallet-repository.js"
import { journalEntriesTable, journalLinesTable } from "../ledger-repository.js"
import { mailOutboxTable } from "../mail-outbox.js"
import { requestLogTable } from "../request-log-repository.js"

/**
 * Each table is written in the migrations and again in its declaration (table.ts: its columns, their
 * rules and SQL types), from which its row Schema, reader, written rows and PostgreSQL's casts follow.
 * These cases hold the two to each other on a migrated database of each dialect, so a column added,
 * renamed or retyped on one side only fails here, named, rather than at some later read.
 */
/**
 * Every table a repository reads, declared once (table.ts), with the columns it keeps but never reads
 * back into the domain, each with why: any other column must be read.
 */
const TABLES: ReadonlyArray<{ readonly table: AnyTable; readonly unread?: ReadonlyArray<string> }> = [
  { table: merchantsTable },
  { table: credentialsTable },
  { table: retiredCredentialsTable },
  { table: gatewaysTable },
  { table: paymentsTable },
  { table: checkoutAttemptsTable },
  { table: checkoutFrameAncestorsTable },
  // A surrogate key: flags are read by payment, newest first.
  { table: paymentFlagsTable, unread: ["id"] },
  { table: refundsTable },
  // The executor's lease: matched in its claim, never part of the refund's state.
  { table: gatewayRefundsTable, unread: ["lease_until"] },
  { table: walletsTable },
  { table: ledgerEntriesTable },
  { table: journalEntriesTable },
  { table: journalLinesTable },
  { table: subscriptionsTable },
  { table: subscriptionInvoicesTable },
  { table: customerPortalSessionsTable },
  // The dispatcher's lease, its lane and the per-target fairness key: matched in its claim, never shown.
  { table: webhookDeliveriesTable, unread: ["lease_owner", "lease_until", "lease_lane", "target"] },
  // A surrogate key: attempts are read by delivery, in order.
  { table: webhookAttemptsTable, unread: ["id"] },
  { table: webhookTargetsTable },
  { table: auditLogTable },
  { table: merchantUsersTable },
  { table: passwordLinksTable },
  { table: dashboardSessionsTable },
  // Matched in WHERE: a deleted destination is kept for payouts, never listed.
  { table: payoutDestinationsTable, unread: ["deleted_at"] },
  { table: payoutsTable },
  { table: webhookEndpointsTable },
  { table: payoutSettingsTable },
  { table: billingSettingsTable },
  { table: testClocksTable },
  { table: savedMethodsTable },
  { table: reserveHoldsTable },
  { table: automaticPayoutsTable },
  { table: balanceAnnouncementsTable },
  { table: reconciliationReportsTable },
  { table: reconciliationLinesTable },
  { table: disputesTable },
  // The dispatcher's lease: matched in its claim, never part of the mail.
  { table: mailOutboxTable, unread: ["lease_until"] },
  { table: requestLogTable },
  // The key and its lock are matched in WHERE; only the stored answer is read back.
  { table: idempotencyKeysTable, unread: ["merchant_id", "environment", "idempotency_key", "locked_until", "created_at"] }
]

/** The tables declared once, for the fast readers' property test. */
export const DECLARED_TABLES: ReadonlyArray<AnyTable> = TABLES.map((entry) => entry.table)

/** The field names a row schema reads. */
export const fieldsOf = (row: Schema.Schema.AnyNoContext): ReadonlyArray<string> => {
  const ast = SchemaAST.encodedAST(row.ast)
  if (ast._tag !== "TypeLiteral") throw new Error(`a row schema is a struct, got ${ast._tag}`)
  return ast.propertySignatures.map((property) => String(property.name))
}

interface Column {
  readonly name: string
  /** The declared type, lower case: `bigint`, `text`, `smallint`... */
  readonly type: string
}

const columnsOf = (table: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.onDialectOrElse({
      pg: () => sql<Column>`SELECT column_name AS name, data_type AS type FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = ${table} ORDER BY ordinal_position`,
      orElse: () => Effect.map(sql<{ name: string; type: string }>`SELECT name, type FROM pragma_table_info(${table})`, (rows) =>
        rows.map((row) => ({ name: row.name, type: row.type.toLowerCase() })))
    }))

/** The type a column's catalogue reports for a declared type: a generated key is spelled per dialect. */
const catalogueType = (type: SqlType) =>
  Effect.map(SqlClient.SqlClient, (sql) => type !== "serial" ? type : sql.onDialectOrElse({ pg: () => "bigint", orElse: () => "integer" }))

/** The drift cases on a migrated database: `client` provides its SqlClient. */
export const tableDrift = (name: string, client: Layer.Layer<SqlClient.SqlClient, unknown>): void =>
  layer(client, { excludeTestServices: true, timeout: "120 seconds" })(`tables and their declarations: ${name}`, (it) => {
    it.effect("every table a repository reads has exactly the columns its declaration reads, and the ones declared unread", () =>
      Effect.gen(function*() {
        const drift: Record<string, { readonly onlyMigrated: ReadonlyArray<string>; readonly onlyRead: ReadonlyArray<string> }> = {}
        for (const { table, unread = [] } of TABLES) {
          const columns = (yield* columnsOf(table.name)).map((column) => column.name)
          const fields = fieldsOf(table.Row)
          expect(columns.length, `${table.name} exists`).toBeGreaterThan(0)
          const onlyMigrated = columns.filter((column) => !fields.includes(column) && !unread.includes(column))
          // A declared unread column that is gone, or is read after all, is drift too.
          const onlyRead = [...fields, ...unread].filter((field) => !columns.includes(field) || (unread.includes(field) && fields.includes(field)))
          if (onlyMigrated.length > 0 || onlyRead.length > 0) drift[table.name] = { onlyMigrated, onlyRead }
        }
        expect(drift).toEqual({})
      }))

    it.effect("every declared column has the type the migration gave it (and PostgreSQL's casts use)", () =>
      Effect.gen(function*() {
        const drift: Record<string, { readonly declared: string; readonly migrated: string }> = {}
        for (const { table } of TABLES) {
          // SQLite keeps declared names (BIGINT, TEXT); PostgreSQL its own (bigint, text): both read the same here.
          for (const column of yield* columnsOf(table.name)) {
            const rule = table.columns[column.name]
            if (rule === undefined) continue
            const declared = yield* catalogueType(rule.type)
            if (declared !== column.type) drift[`${table.name}.${column.name}`] = { declared, migrated: column.type }
          }
        }
        expect(drift).toEqual({})
      }))
  })
