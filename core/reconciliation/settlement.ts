import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { GatewayId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/**
 * What a settlement line records (docs/decisions.md, reconciliation). `payment` and `refund` are
 * matched to the kit's records of the gateway by its reference; `dispute` to the kit's disputes by the
 * gateway's dispute id, twice over: the amount withdrawn when it opened (negative) and, when won, the
 * amount reinstated (positive), each its own line and record; `payout` to the kit's payouts by the
 * reference their rail gave (a Stripe Connect transfer's tr_ id), and otherwise the gateway's own
 * money sent to the platform's bank; `fee` is always the gateway's own (what it kept), which the
 * kit's ledger does not hold per transaction.
 */
export const SettlementLineType = Schema.Literal("payment", "refund", "dispute", "fee", "payout")
export type SettlementLineType = typeof SettlementLineType.Type

/** The types the kit keeps records of, one per gateway reference (and, for a dispute, direction). */
export const MATCHED_TYPES: ReadonlyArray<SettlementLineType> = ["payment", "refund", "dispute"]

/** What one line may claim once in a report: its type and reference, and a dispute's direction. */
export const claimKey = (type: SettlementLineType, reference: string, amount: Amount): string =>
  type === "dispute" ? `${type}\n${amount < 0n ? "withdrawn" : "reinstated"}\n${reference}` : `${type}\n${reference}`

/**
 * How a line came out (docs/decisions.md, reconciliation): both sides agree; the gateway has it and
 * the kit does not; the kit has it in the period and the gateway does not; both have it with another
 * amount or currency; the gateway's own fee or payout, never a discrepancy.
 */
export const ReconciliationOutcome = Schema.Literal("matched", "missing_in_kit", "missing_at_gateway", "amount_differs", "gateway_only")
export type ReconciliationOutcome = typeof ReconciliationOutcome.Type

export const RECONCILIATION_OUTCOMES: ReadonlyArray<ReconciliationOutcome> = ReconciliationOutcome.literals

/**
 * One line of a gateway's settlement. The amount is signed from the platform's side, as the ledger's
 * gateway-clearing account moves: positive is money the gateway took in for the platform (a
 * payment), negative money that left through it (a refund, a dispute, its fee, a payout).
 */
export interface SettlementLine {
  /** The line's number in its report: a CSV's record number, the header being 1. */
  readonly lineNo: number
  readonly gatewayReference: string
  readonly type: SettlementLineType
  readonly amount: Amount
  readonly currency: string
  readonly settledAt: Instant
}

/** Where a report's lines came from: an operator's upload, or the gateway's plugin asked for a period. */
export const ReportSource = Schema.Literal("upload", "gateway")
export type ReportSource = typeof ReportSource.Type

export type OutcomeCounts = Readonly<Record<ReconciliationOutcome, number>>

/** A settlement report of one gateway record and environment over [from, to), reconciled. */
export interface ReconciliationReport {
  readonly id: string
  readonly gatewayId: GatewayId
  readonly gatewayCode: string
  readonly environment: Environment
  readonly from: Instant
  readonly to: Instant
  readonly source: ReportSource
  /** The lines the gateway's report held. */
  readonly lineCount: number
  readonly counts: OutcomeCounts
  readonly createdAt: Instant
}

/** A line of a reconciled report: the gateway's side, the kit's side, or both. */
export interface ReconciliationLine {
  readonly lineNo: number
  readonly outcome: ReconciliationOutcome
  readonly type: SettlementLineType
  readonly gatewayReference: string
  /** The gateway's amount and when it settled; null on a line the gateway did not have. */
  readonly gatewayAmount: Amount | null
  readonly currency: string
  readonly settledAt: Instant | null
  /** The kit's record (a trx_id or a refund's id), its amount as the ledger has it, and when it happened. */
  readonly kitRecord: string | null
  readonly kitAmount: Amount | null
  readonly kitCurrency: string | null
  readonly kitAt: Instant | null
}

export class ReconciliationReportNotFound extends Schema.TaggedError<ReconciliationReportNotFound>()("ReconciliationReportNotFound", {}) {}

/** The gateway record cannot give a settlement report (its plugin has no settlementReport). */
export class SettlementReportUnsupported extends Schema.TaggedError<SettlementReportUnsupported>()("SettlementReportUnsupported", {
  gateway: Schema.String
}) {}
