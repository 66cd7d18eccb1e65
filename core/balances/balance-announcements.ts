import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Instant } from "../shared/instant.js"
import { plusSeconds } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { publishAccountEvent } from "../webhooks/account-events.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import type { Wallet } from "../wallets/wallet.js"
import { walletBalance } from "./balance-sheet.js"
import { BalanceRepository, type UnannouncedBook } from "./balance-repository.js"
import { delayDaysIn } from "./payout-settings.js"
import { PayoutSettingsRepository } from "./payout-settings-repository.js"

const DAY_SECONDS = 86_400

/**
 * Publishes `balance.available` for the wallet's book, its balance as GET /api/v1/balances shows it
 * at `at`, in the caller's transaction (a reserve release's, a tick's watermark write). The book's
 * events are one object to the events API: `balance_<currency>`.
 */
export const announceBalance = (wallet: Wallet, at: Instant) =>
  Effect.gen(function*() {
    const settings = yield* (yield* PayoutSettingsRepository).get(wallet.merchantId)
    const balance = yield* walletBalance(wallet, settings, at)
    return yield* publishAccountEvent({
      merchantId: wallet.merchantId,
      environment: wallet.environment,
      type: "balance.available",
      objectId: `balance_${wallet.currency}`,
      data: { kind: "balance", balance }
    })
  })

/**
 * One book's payments whose delay has passed by `at`, announced once: the watermark moves from where
 * it was read to the last such payment's completion and the event is queued in one transaction, so a
 * pass run twice or on two hosts announces them once. With no delay a payment's net is available on
 * completion (payment.completed says so): the watermark moves on without an event. True when announced.
 */
const announceBook = (book: UnannouncedBook, at: Instant) =>
  Effect.gen(function*() {
    const balances = yield* BalanceRepository
    const delay = delayDaysIn(yield* (yield* PayoutSettingsRepository).get(book.merchantId), book.environment)
    const last = yield* balances.lastCompleted(book, book.announcedThrough, plusSeconds(at, -delay * DAY_SECONDS))
    if (last === null) return false
    return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
      if (!(yield* balances.markAnnounced(book, book.announcedThrough, last))) return false
      if (delay === 0) return false
      const wallet = yield* (yield* WalletRepository).find(book.merchantId, book.currency, book.environment)
      if (Option.isNone(wallet)) return false
      yield* announceBalance(wallet.value, at)
      return true
    }))
  })

/** The scheduler's part: every book (up to `limit`) whose pending payments became available since its last announcement. How many were announced. */
export const announceAvailableBalances = (at: Instant, limit: number) =>
  Effect.gen(function*() {
    const books = yield* (yield* BalanceRepository).unannouncedBooks(at, limit)
    let announced = 0
    for (const book of books) if (yield* announceBook(book, at)) announced++
    return announced
  })
