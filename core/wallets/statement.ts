import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Amount } from "../money/amount.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { WalletId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import { keysetCursor, keysetPage } from "../shared/keyset-page.js"
import { ValidationFailed } from "../shared/validation.js"
import { type LedgerEntryKind, type LedgerEntryWithPayment, type Wallet, WalletNotFound } from "./wallet.js"
import { WalletRepository } from "./wallet-repository.js"

/** One line of a wallet statement: a ledger entry with what caused it named by kind. */
export interface StatementEntry {
  readonly id: number
  readonly kind: LedgerEntryKind
  /** The signed change: positive credits, negative debits. */
  readonly amount: Amount
  readonly balanceAfter: Amount
  /** The payment credited, the one a refund debit paid back, or the one a dispute is about; null for an adjustment. */
  readonly paymentTrxId: string | null
  /** The refund a debit paid out; null for other kinds. */
  readonly refundTrxId: string | null
  /** The ledger's reference as written: a trx id, a refund trx id, "admin" for an adjustment, a payout id, a dispute id. */
  readonly reference: string
  /** An adjustment's reason, a refund's reason. */
  readonly memo: string | null
  readonly createdAt: Instant
}

export interface StatementPage {
  readonly wallet: Wallet
  /** Newest first. */
  readonly entries: ReadonlyArray<StatementEntry>
  /** Where the next (older) page starts; null on the last page. */
  readonly nextCursor: string | null
}

export const DEFAULT_STATEMENT_LIMIT = 50
export const MAX_STATEMENT_LIMIT = 500

export const toStatementEntry = (entry: LedgerEntryWithPayment): StatementEntry => ({
  id: entry.id,
  kind: entry.kind,
  amount: entry.delta,
  balanceAfter: entry.balanceAfter,
  paymentTrxId: entry.paymentTrxId,
  refundTrxId: entry.kind === "refund_debit" ? entry.reference : null,
  reference: entry.reference,
  memo: entry.memo,
  createdAt: entry.createdAt
})

/** The wallet, only when it is the scope's own: another merchant's or environment's is not found, as a missing one. */
export const scopedWallet = (scope: MerchantScope, walletId: WalletId) =>
  Effect.flatMap(
    Effect.flatMap(WalletRepository, (wallets) => wallets.findById(walletId)),
    (found) =>
      Option.match(Option.filter(found, (wallet) => wallet.merchantId === scope.merchant.id && wallet.environment === scope.environment), {
        onNone: () => Effect.fail(new WalletNotFound({ walletId })),
        onSome: Effect.succeed
      })
  )

/** Ledger ids are positive integers (identity columns). */
const entryCursor = keysetCursor("[1-9]\\d{0,15}", Number)

/**
 * One page of a wallet's ledger, newest first; the first entry's balanceAfter is the balance. The
 * cursor has the shared (created_at, id) form, but the page continues by id alone: ids are the order
 * the balance moved in, which a clock set back (the manual clock) cannot reorder.
 */
export const walletStatement = (scope: MerchantScope, walletId: WalletId, request: { readonly cursor?: string; readonly limit: number }) =>
  Effect.gen(function*() {
    if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_STATEMENT_LIMIT) {
      return yield* ValidationFailed.field("limit", `The limit must be a whole number from 1 to ${MAX_STATEMENT_LIMIT}.`)
    }
    const wallet = yield* scopedWallet(scope, walletId)
    const repository = yield* WalletRepository
    const { nextCursor, rows } = yield* keysetPage(entryCursor, request, ({ before, limit }) =>
      Effect.map(
        repository.ledgerBefore(wallet.id, { limit, ...(before !== undefined ? { beforeId: before.id } : {}) }),
        (entries) => entries.map(toStatementEntry)
      ))
    const page: StatementPage = { wallet, entries: rows, nextCursor }
    return page
  })
