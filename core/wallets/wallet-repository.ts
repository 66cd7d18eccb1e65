import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId, WalletId } from "../shared/ids.js"
import type { StorageError } from "../shared/storage-error.js"
import type {
  BalanceOverflow,
  InsufficientBalance,
  LedgerEntry,
  LedgerEntryWithPayment,
  LedgerPosting,
  NewWallet,
  Wallet,
  WalletExists,
  WalletNotFound
} from "./wallet.js"

export class WalletRepository extends Context.Tag("merchant-payments/WalletRepository")<WalletRepository, {
  readonly create: (wallet: NewWallet) => Effect.Effect<Wallet, WalletExists | StorageError>
  readonly findById: (id: WalletId) => Effect.Effect<Option.Option<Wallet>, StorageError>
  /**
   * The wallet, its row locked until the transaction ends (PostgreSQL; SQLite has one writer): what a
   * payout reads before it computes what is available, so no other debit or credit moves it meanwhile.
   */
  readonly findForUpdate: (id: WalletId) => Effect.Effect<Option.Option<Wallet>, StorageError>
  readonly find: (
    merchantId: MerchantId,
    currency: string,
    environment: Environment
  ) => Effect.Effect<Option.Option<Wallet>, StorageError>
  readonly listByMerchant: (merchantId: MerchantId) => Effect.Effect<ReadonlyArray<Wallet>, StorageError>
  readonly setActive: (id: WalletId, active: boolean) => Effect.Effect<Option.Option<Wallet>, StorageError>
  /**
   * Applies a signed delta and writes its ledger entry and its balanced journal entry (the lines of
   * core/ledger/movements.ts, in the wallet's book) atomically. The balance check is part of the
   * update itself, so concurrent debits can never take a balance below zero.
   */
  readonly post: (
    posting: LedgerPosting
  ) => Effect.Effect<LedgerEntry, InsufficientBalance | BalanceOverflow | WalletNotFound | StorageError>
  readonly ledger: (walletId: WalletId) => Effect.Effect<ReadonlyArray<LedgerEntry>, StorageError>
  /**
   * Entries newest first, below `beforeId` when given: a statement's pages. By id, the order the
   * balance moved in (each entry's balance_after follows the one before it), whatever the clock said.
   */
  readonly ledgerBefore: (
    walletId: WalletId,
    query: { readonly beforeId?: number; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<LedgerEntryWithPayment>, StorageError>
  /** Entries oldest first, above `afterId` (0 for the first): an export read one batch at a time. */
  readonly ledgerAfter: (
    walletId: WalletId,
    query: { readonly afterId: number; readonly limit: number }
  ) => Effect.Effect<ReadonlyArray<LedgerEntryWithPayment>, StorageError>
  /** Sum of every ledger delta: equals the balance unless something is badly wrong. */
  readonly ledgerSum: (walletId: WalletId) => Effect.Effect<Amount, StorageError>
}>() {}
