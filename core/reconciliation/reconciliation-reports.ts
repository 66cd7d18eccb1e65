import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { Amount } from "../money/amount.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import { heldExponent } from "../money/currencies.js"
import { toExactCurrencyString } from "../money/format.js"
import { csvField, csvRecord, csvText } from "../shared/csv.js"
import { toIsoString } from "../shared/instant.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import type { StorageError } from "../shared/storage-error.js"
import { ValidationFailed } from "../shared/validation.js"
import { ReconciliationRepository } from "./reconciliation-repository.js"
import { type ReconciliationLine, type ReconciliationOutcome, ReconciliationReportNotFound } from "./settlement.js"

export const DEFAULT_RECONCILIATION_LIMIT = 20
export const MAX_RECONCILIATION_LIMIT = 100
export const DEFAULT_LINE_LIMIT = 100
export const MAX_LINE_LIMIT = 1000

/** Report ids are `rr_` and 32 hex digits. */
const reportCursor = keysetCursor("rr_[0-9a-f]{32}", String)

/** The reports, newest first. */
export const listReconciliationReports = (request: KeysetRequest) =>
  Effect.gen(function*() {
    const repository = yield* ReconciliationRepository
    const { nextCursor, rows } = yield* keysetPage(reportCursor, request, ({ before, limit }) =>
      Effect.map(repository.list({ limit, ...(before !== undefined ? { before } : {}) }), (reports) =>
        reports.map((report) => ({ createdAt: report.createdAt, id: report.id, report }))))
    return { reports: rows.map((row) => row.report), nextCursor }
  })

export const getReconciliationReport = (id: string) =>
  Effect.flatMap(ReconciliationRepository, (repository) =>
    Effect.flatMap(repository.find(id), Option.match({
      onNone: () => Effect.fail(new ReconciliationReportNotFound()),
      onSome: Effect.succeed
    })))

/** A line cursor is the last line's number, opaque (base64url) like every cursor of the API. */
const encodeLineCursor = (lineNo: number): string => btoa(`line.${lineNo}`).replaceAll("=", "")
const decodeLineCursor = (text: string): number | undefined => {
  try {
    const match = /^line\.(\d{1,9})$/.exec(atob(text))
    return match === null ? undefined : Number(match[1])
  } catch {
    return undefined
  }
}

export interface LinePageRequest {
  readonly outcome?: ReconciliationOutcome
  readonly cursor?: string
  readonly limit: number
}

/** A page of a report's lines in line order, of one outcome when asked. */
export const listReconciliationLines = (id: string, request: LinePageRequest) =>
  Effect.gen(function*() {
    const report = yield* getReconciliationReport(id)
    const afterLine = request.cursor === undefined ? undefined : decodeLineCursor(request.cursor)
    if (request.cursor !== undefined && afterLine === undefined) {
      return yield* ValidationFailed.field("cursor", "The cursor must be a next_cursor this API gave.")
    }
    const found = yield* (yield* ReconciliationRepository).lines({
      reportId: report.id,
      limit: request.limit + 1,
      ...(request.outcome !== undefined ? { outcome: request.outcome } : {}),
      ...(afterLine !== undefined ? { afterLine } : {})
    })
    const lines = found.slice(0, request.limit)
    const last = lines[lines.length - 1]
    return { lines, nextCursor: found.length > request.limit && last !== undefined ? encodeLineCursor(last.lineNo) : null }
  })

export const RECONCILIATION_CSV_COLUMNS = [
  "line", "outcome", "type", "gateway_reference", "currency", "gateway_amount", "settled_at", "kit_record", "kit_amount", "kit_currency", "kit_at"
] as const

/** Rows read per batch of the download: memory stays at one batch, whatever the report's size. */
const CSV_BATCH = 2000

const money = (amount: Amount | null, exponent: number) => amount === null ? "" : csvField(toExactCurrencyString(amount, exponent))

/**
 * A report's lines as CSV, of one outcome when asked, in line order: amounts exact in their
 * currency's digits with their sign, text cells defused against formulas. Fails before any text
 * when the report does not exist, so the edge can still answer 404.
 */
export const reconciliationLinesCsv = (id: string, outcome?: ReconciliationOutcome) =>
  Effect.gen(function*() {
    const report = yield* getReconciliationReport(id)
    const repository = yield* ReconciliationRepository
    const catalog = yield* CurrencyCatalog
    const toRecord = (line: ReconciliationLine) =>
      csvRecord([
        String(line.lineNo),
        line.outcome,
        line.type,
        csvText(line.gatewayReference),
        csvText(line.currency),
        money(line.gatewayAmount, heldExponent(catalog, line.currency)),
        line.settledAt === null ? "" : toIsoString(line.settledAt),
        csvText(line.kitRecord),
        money(line.kitAmount, heldExponent(catalog, line.kitCurrency ?? line.currency)),
        csvText(line.kitCurrency),
        line.kitAt === null ? "" : toIsoString(line.kitAt)
      ])
    const batches = Stream.paginateEffect(0, (afterLine: number) =>
      Effect.map(
        repository.lines({ reportId: report.id, afterLine, limit: CSV_BATCH, ...(outcome !== undefined ? { outcome } : {}) }),
        (lines) => {
          const last = lines[lines.length - 1]
          return [lines.map(toRecord).join(""), last !== undefined && lines.length === CSV_BATCH ? Option.some(last.lineNo) : Option.none()] as const
        }
      ))
    const csv: Stream.Stream<string, StorageError> = Stream.concat(
      Stream.succeed(csvRecord([...RECONCILIATION_CSV_COLUMNS])),
      Stream.filter(batches, (text) => text !== "")
    )
    return { report, csv }
  })
