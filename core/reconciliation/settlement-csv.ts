import * as Either from "effect/Either"
import { Amount } from "../money/amount.js"
import { parseSignedAmount } from "../money/parse.js"
import { Environment } from "../shared/environment.js"
import { fromIsoString, type Instant } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { claimKey, MATCHED_TYPES, type SettlementLine, SettlementLineType } from "./settlement.js"

/**
 * The kit's settlement CSV (docs/admin-api.md, reconciliation): RFC 4180, a header naming these
 * columns in any order (others are ignored), one record per line of the gateway's settlement.
 */
export const SETTLEMENT_CSV_COLUMNS = ["gateway", "environment", "gateway_reference", "type", "amount", "currency", "settled_at"] as const
type Column = typeof SETTLEMENT_CSV_COLUMNS[number]

/** A report holds at most this many lines: a busy gateway's month, with room. */
export const MAX_SETTLEMENT_LINES = 250_000
export const MAX_REFERENCE_LENGTH = 255

export interface ParsedSettlement {
  readonly gateway: string
  readonly environment: Environment
  readonly lines: ReadonlyArray<SettlementLine>
}

export interface SettlementCsvRules {
  /** The minor-unit exponent of a currency the deployment knows; undefined for one it does not. */
  readonly exponentOf: (currency: string) => number | undefined
  /** The report's period [from, to): every line settled inside it. */
  readonly from: Instant
  readonly to: Instant
}

/** The first problem, at its record (the header is line 1) and column. */
const refuse = (line: number, column: string, message: string) =>
  Either.left(ValidationFailed.field(column, `Line ${line}, column ${column}: ${message}`))

/** RFC 4180 records: quoted fields may hold commas, quotes (doubled) and line breaks; CRLF or LF ends a record. */
export function* csvRecords(text: string): Generator<ReadonlyArray<string>, void, undefined> {
  let at = text.charCodeAt(0) === 0xfeff ? 1 : 0
  const length = text.length
  while (at < length) {
    const fields: Array<string> = []
    for (;;) {
      let field = ""
      if (text[at] === "\"") {
        at++
        for (;;) {
          const close = text.indexOf("\"", at)
          if (close === -1) throw new UnclosedQuote()
          field += text.slice(at, close)
          at = close + 1
          if (text[at] === "\"") {
            field += "\""
            at++
          } else break
        }
      } else {
        let end = at
        while (end < length && text[end] !== "," && text[end] !== "\n" && text[end] !== "\r") end++
        field = text.slice(at, end)
        at = end
      }
      fields.push(field)
      if (text[at] === ",") {
        at++
        continue
      }
      break
    }
    if (text[at] === "\r") at++
    if (text[at] === "\n") at++
    yield fields
  }
}

class UnclosedQuote extends Error {}

const blank = (record: ReadonlyArray<string>) => record.length === 1 && record[0] === ""

/**
 * Reads a settlement CSV, refusing it at its first bad record and column: every line of one
 * gateway and environment, a known currency with its own digits, an exact signed amount, a settled_at
 * inside the period, and one line per reference of each type the kit matches.
 */
export const parseSettlementCsv = (text: string, rules: SettlementCsvRules): Either.Either<ParsedSettlement, ValidationFailed> => {
  const records = csvRecords(text)
  let lineNo = 0
  const lines: Array<SettlementLine> = []
  const seen = new Set<string>()
  let gateway: string | undefined
  let environment: Environment | undefined
  let index: Readonly<Record<Column, number>> | undefined
  try {
    for (const record of records) {
      lineNo++
      if (index === undefined) {
        const names = record.map((name) => name.trim().toLowerCase())
        const missing = SETTLEMENT_CSV_COLUMNS.filter((column) => !names.includes(column))
        if (missing.length > 0) return refuse(1, missing[0]!, `the header must name the columns ${SETTLEMENT_CSV_COLUMNS.join(", ")}.`)
        index = Object.fromEntries(SETTLEMENT_CSV_COLUMNS.map((column) => [column, names.indexOf(column)])) as Record<Column, number>
        continue
      }
      if (blank(record)) continue
      if (lines.length >= MAX_SETTLEMENT_LINES) return refuse(lineNo, "gateway", `a report holds at most ${MAX_SETTLEMENT_LINES} lines.`)
      const cell = (column: Column) => (record[index![column]] ?? "").trim()
      for (const column of SETTLEMENT_CSV_COLUMNS) {
        if (record[index[column]] === undefined) return refuse(lineNo, column, "the record has fewer fields than the header.")
      }
      const lineGateway = cell("gateway")
      if (lineGateway === "") return refuse(lineNo, "gateway", "a gateway's code is required.")
      if (gateway !== undefined && lineGateway !== gateway) return refuse(lineNo, "gateway", `every line must be of one gateway (${gateway}).`)
      gateway = lineGateway
      const lineEnvironment = cell("environment")
      if (!Environment.literals.includes(lineEnvironment as Environment)) return refuse(lineNo, "environment", "it must be sandbox or production.")
      if (environment !== undefined && lineEnvironment !== environment) return refuse(lineNo, "environment", `every line must be of one environment (${environment}).`)
      environment = lineEnvironment as Environment
      const reference = cell("gateway_reference")
      if (reference === "" || reference.length > MAX_REFERENCE_LENGTH) {
        return refuse(lineNo, "gateway_reference", `it must be 1 to ${MAX_REFERENCE_LENGTH} characters.`)
      }
      const type = cell("type")
      if (!SettlementLineType.literals.includes(type as SettlementLineType)) {
        return refuse(lineNo, "type", `it must be one of ${SettlementLineType.literals.join(", ")}.`)
      }
      const currency = cell("currency")
      const exponent = rules.exponentOf(currency)
      if (exponent === undefined) return refuse(lineNo, "currency", `${JSON.stringify(currency)} is not a currency this deployment knows.`)
      const amount = parseSignedAmount({ kind: "string", value: cell("amount") }, exponent)
      if (Either.isLeft(amount)) return refuse(lineNo, "amount", amount.left.message)
      const settledAt = fromIsoString(cell("settled_at"))
      if (settledAt === undefined) return refuse(lineNo, "settled_at", "it must be an ISO 8601 date-time with an offset, such as 2026-11-01T09:30:00Z.")
      if (settledAt < rules.from || settledAt >= rules.to) return refuse(lineNo, "settled_at", "it must be inside the report's period [from, to).")
      const key = claimKey(type as SettlementLineType, reference, Amount(amount.right))
      if (MATCHED_TYPES.includes(type as SettlementLineType)) {
        if (seen.has(key)) return refuse(lineNo, "gateway_reference", `another ${type} line has this reference${type === "dispute" ? " and sign" : ""}.`)
        seen.add(key)
      }
      lines.push({ lineNo, gatewayReference: reference, type: type as SettlementLineType, amount: Amount(amount.right), currency, settledAt })
    }
  } catch (error) {
    if (error instanceof UnclosedQuote) return refuse(lineNo + 1, "gateway", "a quoted field is never closed.")
    throw error
  }
  if (index === undefined) return refuse(1, "gateway", `the header must name the columns ${SETTLEMENT_CSV_COLUMNS.join(", ")}.`)
  if (gateway === undefined || environment === undefined) return refuse(2, "gateway", "the report has no lines.")
  return Either.right({ gateway, environment, lines })
}
