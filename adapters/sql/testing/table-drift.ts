import { SqlClient } from "@effect/sql"
import { layer } from "@effect/vitest"
import { Effect, type Layer, Schema, SchemaAST } from "effect"
import { expect } from "vitest"
import { AuditRow } from "../audit-log.js"
import { AttemptColumns } from "../checkout-attempt-repository.js"
import { CredentialRow, RetiredCredentialRow } from "../credential-repository.js"
import { GatewayRefundRow } from "../gateway-refund-repository.js"
import { GatewayRow } from "../gateway-repository.js"
import { RecordRow } from "../idempotency-store.js"
import { MerchantRow } from "../merchant-repository.js"
import { MerchantUserRow, PasswordLinkRow } from "../merchant-user-repository.js"
import { DashboardSessionRow } from "../dashboard-session-repository.js"
import { FlagRow } from "../payment-flag-repository.js"
import { paymentsTable } from "../payment-rows.js"
import { RefundRow } from "../refund-repository.js"
import { InvoiceRow, SubscriptionRow } from "../subscription-repository.js"
import { LedgerRow, WalletRow } from "../wallet-repository.js"
import type { AnyTable, Columns } from "../table.js"
import { AttemptRow, DeliveryRow, FailingTargetRow } from "../webhook-outbox.js"

/**
 * Each table is written in the migrations and again in its declaration (table.ts: its columns, their
 * rules and SQL types), or, for a table not declared yet, in the row schema its repository decodes
 * `SELECT *` with. These cases hold them to each other on a migrated database of each dialect, so a
 * column added, renamed or retyped on one side only fails here, named, rather than at some later read.
 */
interface Table {
  readonly table: string
  readonly row: Schema.Schema.AnyNoContext
  /** The declaration, for a declared table: its column types are checked too. */
  readonly columns?: Columns
  /** Columns kept but never read back into the domain, each with why: any other column must be read. */
  readonly unread?: ReadonlyArray<string>
}

/** The tables declared once (table.ts), for the drift cases and the fast readers' property test. */
export const DECLARED_TABLES: ReadonlyArray<AnyTable> = [paymentsTable]

const declared = (table: AnyTable, unread?: ReadonlyArray<string>): Table => ({
  table: table.name,
  row: table.Row,
  columns: table.columns,
  ...(unread !== undefined ? { unread } : {})
})

const TABLES: ReadonlyArray<Table> = [
  { table: "merchants", row: MerchantRow },
  { table: "merchant_credentials", row: CredentialRow },
  { table: "retired_credentials", row: RetiredCredentialRow },
  { table: "gateways", row: GatewayRow },
  declared(paymentsTable),
  { table: "checkout_attempts", row: Schema.Struct(AttemptColumns) },
  // A surrogate key: flags are read by payment, newest first.
  { table: "payment_flags", row: FlagRow, unread: ["id"] },
  { table: "refunds", row: RefundRow },
  // The executor's lease: matched in its claim, never part of the refund's state.
  { table: "gateway_refunds", row: GatewayRefundRow, unread: ["lease_until"] },
  { table: "wallets", row: WalletRow },
  { table: "ledger_entries", row: LedgerRow },
  { table: "subscriptions", row: SubscriptionRow },
  { table: "subscription_invoices", row: InvoiceRow },
  // The dispatcher's lease, its lane and the per-target fairness key: matched in its claim, never shown.
  { table: "webhook_deliveries", row: DeliveryRow, unread: ["lease_owner", "lease_until", "lease_lane", "target"] },
  // A surrogate key: attempts are read by delivery, in order.
  { table: "webhook_attempts", row: AttemptRow, unread: ["id"] },
  { table: "webhook_targets", row: FailingTargetRow },
  // The key and its lock are matched in WHERE; only the stored answer is read back.
  { table: "audit_log", row: AuditRow },
  { table: "merchant_users", row: MerchantUserRow },
  { table: "password_links", row: PasswordLinkRow },
  { table: "dashboard_sessions", row: DashboardSessionRow },
  { table: "idempotency_keys", row: RecordRow, unread: ["merchant_id", "environment", "idempotency_key", "locked_until", "created_at"] }
]

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

/** The drift cases on a migrated database: `client` provides its SqlClient. */
export const tableDrift = (name: string, client: Layer.Layer<SqlClient.SqlClient, unknown>): void =>
  layer(client, { excludeTestServices: true, timeout: "120 seconds" })(`tables and their row schemas: ${name}`, (it) => {
    it.effect("every table a repository reads has exactly the columns its row schema reads, and the ones declared unread", () =>
      Effect.gen(function*() {
        const drift: Record<string, { readonly onlyMigrated: ReadonlyArray<string>; readonly onlyRead: ReadonlyArray<string> }> = {}
        for (const { row, table, unread = [] } of TABLES) {
          const columns = (yield* columnsOf(table)).map((column) => column.name)
          const fields = fieldsOf(row)
          expect(columns.length, `${table} exists`).toBeGreaterThan(0)
          const onlyMigrated = columns.filter((column) => !fields.includes(column) && !unread.includes(column))
          // A declared unread column that is gone, or is read after all, is drift too.
          const onlyRead = [...fields, ...unread].filter((field) => !columns.includes(field) || (unread.includes(field) && fields.includes(field)))
          if (onlyMigrated.length > 0 || onlyRead.length > 0) drift[table] = { onlyMigrated, onlyRead }
        }
        expect(drift).toEqual({})
      }))

    it.effect("every declared column has the type the migration gave it", () =>
      Effect.gen(function*() {
        const drift: Record<string, { readonly declared: string; readonly migrated: string }> = {}
        for (const { columns: declaredColumns, table } of TABLES) {
          if (declaredColumns === undefined) continue
          // SQLite keeps declared names (BIGINT, TEXT); PostgreSQL its own (bigint, text): both read the same here.
          for (const column of yield* columnsOf(table)) {
            const rule = declaredColumns[column.name]
            if (rule !== undefined && rule.type !== column.type) drift[`${table}.${column.name}`] = { declared: rule.type, migrated: column.type }
          }
        }
        expect(TABLES.some((table) => table.columns !== undefined)).toBe(true)
        expect(drift).toEqual({})
      }))
  })
