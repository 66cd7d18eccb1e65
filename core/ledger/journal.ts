import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { LedgerAccount } from "./account.js"

/** What moved the money: the movements of movements.ts, and the opening balances the ledger began with. */
export const JournalEntryKind = Schema.Literal(
  "payment_completed",
  "refund",
  "adjustment",
  "opening",
  "payout_requested",
  "payout_paid",
  "payout_returned",
  "reserve_held",
  "reserve_released",
  "dispute_opened",
  "dispute_won",
  "dispute_lost"
)
export type JournalEntryKind = typeof JournalEntryKind.Type

/** One account's share of an entry: positive debits it, negative credits it. */
export interface JournalLine {
  readonly account: LedgerAccount
  readonly amount: Amount
}

/**
 * One movement of money in one book (environment and currency): lines summing to zero, each account
 * at most once, none of zero.
 */
export interface JournalEntry {
  readonly kind: JournalEntryKind
  readonly environment: Environment
  readonly currency: string
  /** What caused it, as the wallet's ledger entry names it: a trx id, a refund id, "admin". */
  readonly reference: string
  readonly lines: ReadonlyArray<JournalLine>
}

export const sumOfLines = (lines: ReadonlyArray<JournalLine>): bigint => lines.reduce((sum, line) => sum + line.amount, 0n)

/** Sums to zero, names each account once and has no empty line: what every store refuses to write otherwise. */
export const isBalanced = (lines: ReadonlyArray<JournalLine>): boolean =>
  sumOfLines(lines) === 0n &&
  lines.every((line) => line.amount !== 0n) &&
  new Set(lines.map((line) => line.account)).size === lines.length
