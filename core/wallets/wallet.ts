import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId, WalletId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/** One merchant's balance in one currency and one environment; sandbox money never meets production. */
export interface Wallet {
  readonly id: WalletId
  readonly merchantId: MerchantId
  readonly currency: string
  readonly environment: Environment
  readonly balance: Amount
  readonly active: boolean
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export interface NewWallet {
  readonly merchantId: MerchantId
  readonly currency: string
  readonly environment: Environment
}

export const LedgerEntryKind = Schema.Literal(
  "payment_credit",
  "refund_debit",
  "adjustment",
  "payout_debit",
  "payout_return",
  "reserve_hold",
  "reserve_release",
  "dispute_debit",
  "dispute_return"
)
export type LedgerEntryKind = typeof LedgerEntryKind.Type

/** Every balance change, written in the same transaction as the change: balance = sum of deltas. */
export interface LedgerEntry {
  readonly id: number
  readonly walletId: WalletId
  readonly kind: LedgerEntryKind
  readonly delta: Amount
  readonly balanceAfter: Amount
  /** What caused it: a trx id, a refund id, an adjustment reason, a payout id. */
  readonly reference: string
  readonly memo: string | null
  readonly createdAt: Instant
}

/** A ledger entry with the payment it concerns: the one it credited, or the one a refund debit paid back. */
export interface LedgerEntryWithPayment extends LedgerEntry {
  readonly paymentTrxId: string | null
}

interface PostingOf<K extends LedgerEntryKind> {
  readonly walletId: WalletId
  readonly kind: K
  /** The change of the wallet's balance. */
  readonly delta: Amount
  readonly reference: string
  readonly memo?: string | null
}

/**
 * A change of a wallet's balance, written with its balanced journal entry (core/ledger/movements.ts
 * says the accounts). A payment's credit names the fee the platform kept, the gross being delta + fee.
 */
export type LedgerPosting =
  | PostingOf<"payment_credit"> & { readonly fee: Amount }
  | PostingOf<"refund_debit">
  | PostingOf<"adjustment">
  /** A payout requested (delta negative), or returned when it failed or was rejected (delta positive); reference its id. */
  | PostingOf<"payout_debit">
  | PostingOf<"payout_return">
  /** Part of a payment's net held as a rolling reserve (delta negative), or released back (delta positive); reference the payment's trx id. */
  | PostingOf<"reserve_hold">
  | PostingOf<"reserve_release">
  /**
   * A dispute opened: the disputed amount and the merchant's dispute fee leave the wallet at once
   * (delta = -(amount + fee)), whatever it holds, so the balance may go below zero. Reference its id.
   */
  | PostingOf<"dispute_debit"> & { readonly fee: Amount }
  /** A dispute won: the disputed amount (not the fee) comes back (delta positive). Reference its id. */
  | PostingOf<"dispute_return">

/** The only postings that may take a wallet below zero: a dispute is recorded whatever the wallet holds. */
export const mayOverdraw = (posting: LedgerPosting): boolean => posting.kind === "dispute_debit"

export class WalletExists extends Schema.TaggedError<WalletExists>()("WalletExists", {
  currency: Schema.String,
  environment: Schema.String
}) {}

export class WalletNotFound extends Schema.TaggedError<WalletNotFound>()("WalletNotFound", {
  walletId: Schema.Number
}) {}

/** A debit would take the balance below zero (or below what it was, if already negative); nothing was written. */
export class InsufficientBalance extends Schema.TaggedError<InsufficientBalance>()("InsufficientBalance", {
  walletId: Schema.Number
}) {}

/** A credit would take the balance past what a BIGINT holds; nothing was written. */
export class BalanceOverflow extends Schema.TaggedError<BalanceOverflow>()("BalanceOverflow", {
  walletId: Schema.Number
}) {}
