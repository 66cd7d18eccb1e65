import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { LedgerAccount } from "./account.js"
import type { JournalEntry, JournalEntryKind } from "./journal.js"

/** One account's balance in one book: the sum of its lines. */
export interface AccountBalance {
  readonly account: LedgerAccount
  readonly balance: Amount
}

/** An entry as the journal keeps it: its id and when it was written. */
export interface RecordedEntry extends JournalEntry {
  readonly id: number
  readonly createdAt: Instant
}

/**
 * The journal. A movement of a wallet's balance is written by WalletRepository.post, its entry in the
 * same transaction as the balance; this port writes the entries that move no wallet and reads the books.
 */
export class Ledger extends Context.Tag("merchant-payments/Ledger")<Ledger, {
  /**
   * Writes a balanced entry that touches no wallet's account (a payment whose whole amount was fee).
   * An unbalanced entry, or one naming a wallet's account, is a defect: it would make the books lie.
   */
  readonly record: (entry: JournalEntry) => Effect.Effect<void, StorageError>
  /** The entries of these kinds naming `reference` (a payout's id...), oldest first, each with its lines. */
  readonly entriesOf: (reference: string, kinds: ReadonlyArray<JournalEntryKind>) => Effect.Effect<ReadonlyArray<RecordedEntry>, StorageError>
  /** Every account of one book with its balance, ordered by account name (code unit by code unit). */
  readonly balances: (environment: Environment, currency: string) => Effect.Effect<ReadonlyArray<AccountBalance>, StorageError>
  /** One account's balance in one book; zero when it has no line. */
  readonly balanceOf: (environment: Environment, currency: string, account: LedgerAccount) => Effect.Effect<Amount, StorageError>
}>() {}
