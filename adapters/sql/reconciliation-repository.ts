import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { GATEWAY_CLEARING } from "../../core/ledger/account.js"
import { Amount } from "../../core/money/amount.js"
import { ReconciliationRepository } from "../../core/reconciliation/reconciliation-repository.js"
import {
  type OutcomeCounts,
  RECONCILIATION_OUTCOMES,
  ReconciliationOutcome,
  type ReconciliationLine,
  type ReconciliationReport,
  ReportSource,
  SettlementLineType
} from "../../core/reconciliation/settlement.js"
import { Environment } from "../../core/shared/environment.js"
import { GatewayId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { Int64 } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"
import { keysetAfter } from "./keyset.js"

export const reconciliationReportsTable = table("reconciliation_reports", {
  id: text,
  gateway_id: safeInt,
  gateway_code: text,
  environment: literal(Environment),
  period_from: int64,
  period_to: int64,
  source: literal(ReportSource),
  line_count: safeInt,
  matched: safeInt,
  missing_in_kit: safeInt,
  missing_at_gateway: safeInt,
  amount_differs: safeInt,
  gateway_only: safeInt,
  created_at: int64
})

export const reconciliationLinesTable = table("reconciliation_lines", {
  report_id: text,
  line_no: safeInt,
  outcome: literal(ReconciliationOutcome),
  type: literal(SettlementLineType),
  gateway_reference: text,
  currency: text,
  gateway_amount: nullable(int64),
  settled_at: nullable(int64),
  kit_record: nullable(text),
  kit_amount: nullable(int64),
  kit_currency: nullable(text),
  kit_at: nullable(int64)
})

const reports = tableRows(reconciliationReportsTable, (row): ReconciliationReport => ({
  id: row.id,
  gatewayId: GatewayId(row.gateway_id),
  gatewayCode: row.gateway_code,
  environment: row.environment,
  from: Instant(row.period_from),
  to: Instant(row.period_to),
  source: row.source,
  lineCount: row.line_count,
  counts: {
    matched: row.matched,
    missing_in_kit: row.missing_in_kit,
    missing_at_gateway: row.missing_at_gateway,
    amount_differs: row.amount_differs,
    gateway_only: row.gateway_only
  },
  createdAt: Instant(row.created_at)
}))

const amountOrNull = (value: bigint | null) => (value === null ? null : Amount(value))
const instantOrNull = (value: bigint | null) => (value === null ? null : Instant(value))

const lines = tableRows(reconciliationLinesTable, (row): ReconciliationLine => ({
  lineNo: row.line_no,
  outcome: row.outcome,
  type: row.type,
  gatewayReference: row.gateway_reference,
  gatewayAmount: amountOrNull(row.gateway_amount),
  currency: row.currency,
  settledAt: instantOrNull(row.settled_at),
  kitRecord: row.kit_record,
  kitAmount: amountOrNull(row.kit_amount),
  kitCurrency: row.kit_currency,
  kitAt: instantOrNull(row.kit_at)
}))

const Counted = Schema.Array(Schema.Struct({ outcome: ReconciliationOutcome, n: Int64 }))

/** Rows per INSERT: 12 parameters each stays far below both stores' limits on bound values. */
const INSERT_BATCH = 1000

/**
 * A line and a kit record of the same reference and type claim each other; a dispute's two (the
 * amount withdrawn, the amount reinstated when won) also by their sign. `line` and `record` name the
 * two sides' aliases.
 */
const sameClaim = (line: string, record: string) =>
  `${record}.reference = ${line}.gateway_reference AND ${record}.type = ${line}.type
    AND (${line}.type <> 'dispute' OR (${record}.amount < 0) = (${line}.gateway_amount < 0))`

export const layer = Layer.effect(
  ReconciliationRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const find = (id: string) => sql`SELECT * FROM reconciliation_reports WHERE id = ${id}`.pipe(Effect.flatMap(reports.first), dbCall)
    return ReconciliationRepository.of({
      reconcile: (report) =>
        sql.withTransaction(Effect.gen(function*() {
          const id = report.id
          yield* sql`INSERT INTO reconciliation_reports ${
            sql.insert(reconciliationReportsTable.values({
              id,
              gateway_id: report.gatewayId,
              gateway_code: report.gatewayCode,
              environment: report.environment,
              period_from: report.from,
              period_to: report.to,
              source: report.source,
              line_count: report.lines.length,
              matched: 0,
              missing_in_kit: 0,
              missing_at_gateway: 0,
              amount_differs: 0,
              gateway_only: 0,
              created_at: report.createdAt
            }))
          }`
          for (let start = 0; start < report.lines.length; start += INSERT_BATCH) {
            yield* sql`INSERT INTO reconciliation_lines ${
              sql.insert(report.lines.slice(start, start + INSERT_BATCH).map((line) => ({
                report_id: id,
                line_no: line.lineNo,
                outcome: null,
                type: line.type,
                gateway_reference: line.gatewayReference,
                currency: line.currency,
                gateway_amount: line.amount,
                settled_at: line.settledAt,
                kit_record: null,
                kit_amount: null,
                kit_currency: null,
                kit_at: null
              })))
            }`
          }
          // The kit's records of the gateway, once: a payment by the reference its gateway gave (its
          // trx_id when none), its amount the gateway-clearing line of its journal entry (the payment's
          // own for one completed before the journal began); a refund sent through the gateway likewise.
          yield* sql`INSERT INTO reconciliation_kit_records (report_id, reference, type, record, amount, currency, at)
            SELECT ${id}, COALESCE(ca.gateway_reference, p.trx_id), 'payment', p.trx_id, COALESCE(jl.amount, p.amount), p.currency, p.completed_at
            FROM payments p
            LEFT JOIN checkout_attempts ca ON ca.trx_id = p.trx_id AND ca.gateway_id = p.gateway_id
            LEFT JOIN journal_entries je ON je.reference = p.trx_id AND je.kind = 'payment_completed'
            LEFT JOIN journal_lines jl ON jl.entry_id = je.id AND jl.account = ${GATEWAY_CLEARING}
            WHERE p.gateway_id = ${report.gatewayId} AND p.environment = ${report.environment} AND p.status = 'success'
              AND p.completed_at >= ${report.kitFrom} AND p.completed_at < ${report.kitTo}`
          yield* sql`INSERT INTO reconciliation_kit_records (report_id, reference, type, record, amount, currency, at)
            SELECT ${id}, COALESCE(gr.gateway_reference, gr.refund_trx_id), 'refund', gr.refund_trx_id, COALESCE(jl.amount, -gr.amount), gr.currency, gr.created_at
            FROM gateway_refunds gr
            JOIN refunds r ON r.refund_trx_id = gr.refund_trx_id
            LEFT JOIN journal_entries je ON je.reference = gr.refund_trx_id AND je.kind = 'refund'
            LEFT JOIN journal_lines jl ON jl.entry_id = je.id AND jl.account = ${GATEWAY_CLEARING}
            WHERE gr.gateway_id = ${report.gatewayId} AND r.environment = ${report.environment}
              AND gr.created_at >= ${report.kitFrom} AND gr.created_at < ${report.kitTo}`
          // A dispute the gateway reported, by its id for it: the amount withdrawn when it opened, and
          // the amount given back when won (won is final: its last change is when), each a record. Disputes the kit
          // opened itself (sandbox) have no gateway and are no report's.
          yield* sql`INSERT INTO reconciliation_kit_records (report_id, reference, type, record, amount, currency, at)
            SELECT ${id}, d.gateway_dispute_id, 'dispute', d.id, -d.amount, d.currency, d.created_at
            FROM disputes d
            WHERE d.gateway_id = ${report.gatewayId} AND d.environment = ${report.environment} AND d.gateway_dispute_id IS NOT NULL
              AND d.created_at >= ${report.kitFrom} AND d.created_at < ${report.kitTo}`
          yield* sql`INSERT INTO reconciliation_kit_records (report_id, reference, type, record, amount, currency, at)
            SELECT ${id}, d.gateway_dispute_id, 'dispute', d.id, d.amount, d.currency, d.updated_at
            FROM disputes d
            WHERE d.gateway_id = ${report.gatewayId} AND d.environment = ${report.environment} AND d.gateway_dispute_id IS NOT NULL
              AND d.status = 'won' AND d.updated_at >= ${report.kitFrom} AND d.updated_at < ${report.kitTo}`
          // A payout paid with a reference, when it was paid (paid is final): those this gateway's plugin carried as its
          // rail (Stripe Connect transfers) are the report's; another rail's (the manual rail's bank
          // transfers) only when a payout line names its reference.
          yield* sql`INSERT INTO reconciliation_kit_records (report_id, reference, type, record, amount, currency, at)
            SELECT ${id}, p.reference, 'payout', p.id, -p.amount, p.currency, p.updated_at
            FROM payouts p
            WHERE p.status = 'paid' AND p.environment = ${report.environment} AND p.reference IS NOT NULL
              AND p.updated_at >= ${report.kitFrom} AND p.updated_at < ${report.kitTo}
              AND (p.rail = (SELECT g.plugin FROM gateways g WHERE g.id = ${report.gatewayId})
                OR EXISTS (SELECT 1 FROM reconciliation_lines l
                  WHERE l.report_id = ${id} AND l.gateway_reference = p.reference AND l.type = 'payout'))`
          // Each line finds its record by reference and type, on the scratch table's index.
          yield* sql`UPDATE reconciliation_lines
            SET kit_record = k.record, kit_amount = k.amount, kit_currency = k.currency, kit_at = k.at
            FROM reconciliation_kit_records k
            WHERE reconciliation_lines.report_id = ${id} AND k.report_id = ${id}
              AND ${sql.literal(sameClaim("reconciliation_lines", "k"))}
              AND reconciliation_lines.type <> 'fee'`
          // The gateway's fees, and payouts no payout of the kit's explains (to the platform's own bank), are its own money.
          yield* sql`UPDATE reconciliation_lines SET outcome = CASE
              WHEN type = 'fee' OR (type = 'payout' AND kit_record IS NULL) THEN 'gateway_only'
              WHEN kit_record IS NULL THEN 'missing_in_kit'
              WHEN kit_amount = gateway_amount AND kit_currency = currency THEN 'matched'
              ELSE 'amount_differs' END
            WHERE report_id = ${id}`
          // The period's records no line named, numbered after the gateway's lines.
          const lastLine = report.lines.reduce((last, line) => Math.max(last, line.lineNo), 0)
          yield* sql`INSERT INTO reconciliation_lines
              (report_id, line_no, outcome, type, gateway_reference, currency, gateway_amount, settled_at, kit_record, kit_amount, kit_currency, kit_at)
            SELECT ${id}, ${sql.literal(String(lastLine))} + ROW_NUMBER() OVER (ORDER BY k.at, k.type, k.record), 'missing_at_gateway', k.type, k.reference,
              k.currency, NULL, NULL, k.record, k.amount, k.currency, k.at
            FROM reconciliation_kit_records k
            WHERE k.report_id = ${id} AND k.at >= ${report.from} AND k.at < ${report.to}
              AND NOT EXISTS (SELECT 1 FROM reconciliation_lines l
                WHERE l.report_id = ${id} AND ${sql.literal(sameClaim("l", "k"))})`
          yield* sql`DELETE FROM reconciliation_kit_records WHERE report_id = ${id}`
          const counted = yield* Schema.decodeUnknown(Counted)(
            yield* sql`SELECT outcome, COUNT(*) AS n FROM reconciliation_lines WHERE report_id = ${id} GROUP BY outcome`
          )
          const counts = Object.fromEntries(RECONCILIATION_OUTCOMES.map((outcome) =>
            [outcome, Number(counted.find((row) => row.outcome === outcome)?.n ?? 0n)])) as unknown as OutcomeCounts
          yield* sql`UPDATE reconciliation_reports SET ${sql.update({ ...counts })} WHERE id = ${id}`
          return yield* reports.one(yield* sql`SELECT * FROM reconciliation_reports WHERE id = ${id}`)
        })).pipe(dbCall),
      find,
      list: (query) =>
        sql`SELECT * FROM reconciliation_reports ${
          query.before !== undefined
            ? sql`WHERE ${keysetAfter(sql, "id", query.before)}`
            : sql``
        } ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(reports.all), dbCall),
      lines: (query) =>
        sql`SELECT * FROM reconciliation_lines WHERE ${
          sql.and([
            sql`report_id = ${query.reportId}`,
            ...(query.outcome !== undefined ? [sql`outcome = ${query.outcome}`] : []),
            ...(query.afterLine !== undefined ? [sql`line_no > ${query.afterLine}`] : [])
          ])
        } ORDER BY line_no LIMIT ${query.limit}`.pipe(Effect.flatMap(lines.all), dbCall)
    })
  })
)
