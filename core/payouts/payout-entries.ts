import * as Effect from "effect/Effect"
import { Ledger, type RecordedEntry } from "../ledger/ledger.js"
import type { JournalEntryKind } from "../ledger/journal.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toExactCurrencyString } from "../money/format.js"
import { csvField, csvRecord, csvText } from "../shared/csv.js"
import { toIsoString } from "../shared/instant.js"
import { getPayout } from "./list-payouts.js"

/** The movements a payout makes (core/ledger/movements.ts): asked for, then paid or returned. */
export const PAYOUT_ENTRY_KINDS: ReadonlyArray<JournalEntryKind> = ["payout_requested", "payout_paid", "payout_returned"]

/**
 * The journal entries one of the caller's payouts settles, oldest first, each with its lines:
 * another merchant's or environment's payout is not found, as the payout itself is not.
 */
export const payoutEntries = (scope: MerchantScope, id: string) =>
  Effect.gen(function*() {
    const payout = yield* getPayout(scope, id)
    const entries = yield* (yield* Ledger).entriesOf(payout.id, PAYOUT_ENTRY_KINDS)
    return { payout, entries, exponent: yield* exponentOfHeld(payout.currency) }
  })

export const PAYOUT_ENTRIES_CSV_COLUMNS = ["entry_id", "created_at", "kind", "account", "amount", "currency", "reference"] as const

/** One line per journal line, in the statement's style (RFC 4180, exact amounts, debit positive, text cells defused). */
export const payoutEntriesCsv = (entries: ReadonlyArray<RecordedEntry>, exponent: number): string =>
  [
    csvRecord([...PAYOUT_ENTRIES_CSV_COLUMNS]),
    ...entries.flatMap((entry) =>
      entry.lines.map((line) =>
        csvRecord([
          String(entry.id),
          toIsoString(entry.createdAt),
          csvText(entry.kind),
          csvText(line.account),
          csvField(toExactCurrencyString(line.amount, exponent)),
          csvText(entry.currency),
          csvText(entry.reference)
        ])))
  ].join("")
