import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { reconcileFromGateway, reconcileUpload } from "../../../core/reconciliation/reconcile.js"
import {
  getReconciliationReport,
  listReconciliationLines,
  listReconciliationReports,
  reconciliationLinesCsv
} from "../../../core/reconciliation/reconciliation-reports.js"
import type { ReconciliationLine, ReconciliationReport } from "../../../core/reconciliation/settlement.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { jsonAmount } from "../contract/json-codec.js"
import { textInPath } from "../contract/parameters.js"
import * as Contract from "../contract/reconciliation-contracts.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { textBody } from "../request/request-body.js"
import { FileAnswer, TextFile } from "../response/text-file.js"

/** A settlement CSV of 250,000 lines of about 120 bytes, with room. */
export const MAX_SETTLEMENT_CSV_BYTES = 48 * 1024 * 1024

const reportJson = (report: ReconciliationReport) => ({
  id: report.id,
  gateway: report.gatewayCode,
  gateway_id: report.gatewayId,
  environment: report.environment,
  from: toIsoString(report.from),
  to: toIsoString(report.to),
  source: report.source,
  line_count: report.lineCount,
  counts: { ...report.counts },
  created_at: toIsoString(report.createdAt)
})

const lineJson = (line: ReconciliationLine) => ({
  line: line.lineNo,
  outcome: line.outcome,
  type: line.type,
  gateway_reference: line.gatewayReference,
  currency: line.currency,
  gateway_amount: line.gatewayAmount === null ? null : jsonAmount(line.gatewayAmount),
  settled_at: line.settledAt === null ? null : toIsoString(line.settledAt),
  kit_record: line.kitRecord,
  kit_amount: line.kitAmount === null ? null : jsonAmount(line.kitAmount),
  kit_currency: line.kitCurrency,
  kit_at: line.kitAt === null ? null : toIsoString(line.kitAt)
})

const TAG = "Admin: reconciliation"
const reportIdInPath = textInPath("id", "The report's id.")

const upload = endpoint({
  method: "post",
  path: "/admin/v1/reconciliation/reports",
  operationId: "uploadReconciliationReport",
  summary: "Reconcile a gateway's settlement CSV",
  description: "The kit's settlement CSV (columns gateway, environment, gateway_reference, type, amount, currency, settled_at) of one gateway " +
    "record and environment over [from, to), matched to the kit's records by reference and amount. A bad file is refused whole, naming its first bad line and column.",
  tag: TAG,
  security: "admin",
  textBody: {
    contentType: "text/csv",
    maxBytes: MAX_SETTLEMENT_CSV_BYTES,
    description: "RFC 4180, UTF-8, a header line first; amounts exact decimals in the currency's digits, signed from the platform's side."
  },
  query: Contract.uploadQuery,
  success: { status: 201, description: "The report, reconciled: its counts by outcome.", schema: Contract.ReconciliationReportEnvelope },
  errors: ["ValidationFailed"],
  handler: (query) => Effect.map(Effect.flatMap(textBody, (csv) => reconcileUpload(csv, query)), (report) => ({ data: reportJson(report) }))
})

const run = endpoint({
  method: "post",
  path: "/admin/v1/reconciliation/runs",
  operationId: "runReconciliation",
  summary: "Fetch a gateway's settlement and reconcile it",
  description: "The gateway's plugin reads its settlement over the period (Stripe: balance transactions) and it is reconciled as an upload is.",
  tag: TAG,
  security: "admin",
  body: Contract.runBody,
  success: { status: 201, description: "The report, reconciled: its counts by outcome.", schema: Contract.ReconciliationReportEnvelope },
  errors: ["SettlementReportUnsupported", "PluginCallFailed", "UnknownGatewayPlugin"],
  handler: Effect.gen(function*() {
    const body = yield* validBody(Contract.runBody)
    const report = yield* reconcileFromGateway({ gateway: body.gateway, environment: body.environment, from: body.from, to: body.to })
    return { data: reportJson(report) }
  })
})

const list = endpoint({
  method: "get",
  path: "/admin/v1/reconciliation/reports",
  operationId: "listReconciliationReports",
  summary: "Reconciliation reports, newest first",
  tag: TAG,
  security: "admin",
  query: Contract.reportListQuery,
  success: { status: 200, description: "A page of reports.", schema: Contract.ReconciliationReportPage },
  handler: (query) =>
    Effect.map(listReconciliationReports(query), (page) => ({
      data: page.reports.map(reportJson),
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor
    }))
})

const get = endpoint({
  method: "get",
  path: "/admin/v1/reconciliation/reports/{id}",
  operationId: "getReconciliationReport",
  summary: "A reconciliation report and its counts by outcome",
  tag: TAG,
  security: "admin",
  parameters: [reportIdInPath],
  success: { status: 200, description: "The report.", schema: Contract.ReconciliationReportEnvelope },
  errors: ["ReconciliationReportNotFound"],
  handler: Effect.map(Effect.flatMap(reportIdInPath.read, getReconciliationReport), (report) => ({ data: reportJson(report) }))
})

const lines = endpoint({
  method: "get",
  path: "/admin/v1/reconciliation/reports/{id}/lines",
  operationId: "listReconciliationLines",
  summary: "A report's lines, in line order",
  description: "Of one outcome when asked; paged by `cursor`.",
  tag: TAG,
  security: "admin",
  parameters: [reportIdInPath],
  query: Contract.lineListQuery,
  success: { status: 200, description: "A page of lines.", schema: Contract.ReconciliationLinePage },
  errors: ["ReconciliationReportNotFound"],
  handler: (query) =>
    Effect.map(Effect.flatMap(reportIdInPath.read, (id) => listReconciliationLines(id, query)), (page) => ({
      data: page.lines.map(lineJson),
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor
    }))
})

const csv = endpoint({
  method: "get",
  path: "/admin/v1/reconciliation/reports/{id}/lines.csv",
  operationId: "downloadReconciliationLines",
  summary: "A report's lines as CSV",
  description: "Every line (of one outcome when asked), in line order: amounts exact and signed in their currency's digits.",
  tag: TAG,
  security: "admin",
  parameters: [reportIdInPath],
  query: Contract.lineCsvQuery,
  success: { status: 200, description: "RFC 4180 CSV with a header line.", schema: FileAnswer, files: ["text/csv"] },
  errors: ["ReconciliationReportNotFound"],
  handler: (query) =>
    Effect.gen(function*() {
      const id = yield* reportIdInPath.read
      const { csv, report } = yield* reconciliationLinesCsv(id, query.outcome)
      const text = yield* Stream.runFold(csv, "", (all, chunk) => all + chunk)
      const name = `reconciliation-${report.id}${query.outcome !== undefined ? `-${query.outcome}` : ""}.csv`
      return new TextFile("text/csv; charset=utf-8", text, name)
    })
})

/** docs/admin-api.md, reconciliation. */
export const adminReconciliationEndpoints = [upload, run, list, get, lines, csv] as const
