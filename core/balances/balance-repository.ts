import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId, WalletId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/** One merchant's money in one currency and environment: a wallet's book. */
export interface WalletBook {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly currency: string
}

/** Part of one payment's net held back from its wallet until `releaseAt`. */
export interface ReserveHold extends WalletBook {
  readonly id: number
  readonly walletId: WalletId
  /** The payment's trx id: one hold per payment. */
  readonly reference: string
  readonly amount: Amount
  readonly heldAt: Instant
  readonly releaseAt: Instant
}

/** What payments completed since an instant still owe the wallet's pending part. */
export interface RecentNet {
  /** Their net less what each put in the reserve (that part is reserved, not pending). */
  readonly net: Amount
  /** When the earliest of them completed; null when there is none. */
  readonly earliest: Instant | null
}

/** Which period of a merchant's schedule an automatic payout was made for: at most one each. */
export interface PayoutPeriod extends WalletBook {
  /** The period's first day, `YYYY-MM-DD` (UTC). */
  readonly period: string
}

export class BalanceRepository extends Context.Tag("merchant-payments/BalanceRepository")<BalanceRepository, {
  /** The wallet book's successful payments completed after `since` (a payment completed exactly `delay` ago is no longer pending). */
  readonly recentNet: (book: WalletBook, since: Instant) => Effect.Effect<RecentNet, StorageError>
  /** What the book's holds not yet released add up to. */
  readonly reserved: (book: WalletBook) => Effect.Effect<Amount, StorageError>
  /** What every book's holds not yet released add up to, by environment and currency: the metric's figure. */
  readonly reservedTotals: Effect.Effect<ReadonlyArray<{ readonly environment: Environment; readonly currency: string; readonly amount: Amount }>, StorageError>
  /** Written in the transaction of the wallet debit it records. */
  readonly hold: (hold: Omit<ReserveHold, "id">) => Effect.Effect<void, StorageError>
  /** Holds not yet released whose time is up at `at`, earliest first. */
  readonly dueHolds: (at: Instant, limit: number) => Effect.Effect<ReadonlyArray<ReserveHold>, StorageError>
  /** Marks the hold released; false when it already was (another host got there first): release it once. */
  readonly markReleased: (id: number, at: Instant) => Effect.Effect<boolean, StorageError>
  /** Whether the period already has its automatic payout: a cheap look before one is attempted. */
  readonly periodTaken: (period: PayoutPeriod) => Effect.Effect<boolean, StorageError>
  /**
   * Records the period's automatic payout; false when the period already has one. The key is the
   * store's, so two hosts ticking at once make one payout.
   */
  readonly claimPeriod: (period: PayoutPeriod, payoutId: string, at: Instant) => Effect.Effect<boolean, StorageError>
}>() {}
