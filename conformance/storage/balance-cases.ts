import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { BalanceRepository } from "../../core/balances/balance-repository.js"
import { defaultPayoutSettings } from "../../core/balances/payout-settings.js"
import { PayoutSettingsRepository } from "../../core/balances/payout-settings-repository.js"
import { reserveHoldAccount } from "../../core/ledger/account.js"
import { Ledger } from "../../core/ledger/ledger.js"
import { Amount } from "../../core/money/amount.js"
import { PayoutRepository } from "../../core/payouts/payout-repository.js"
import { PayoutDestinationRepository } from "../../core/payouts/payout-destination-repository.js"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { makeMerchant, makeWallet, newPayment, paidPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const AT = fromSeconds(1_950_000_000)

export const balanceCases = (it: StorageIt) => {
  it.effect("payout settings: the defaults until written, then exactly what was written; approved merchants listed by schedule", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutSettingsRepository
      const merchant = yield* makeMerchant()
      const suspended = yield* makeMerchant({ status: "suspended" })
      expect(yield* repo.get(merchant.id)).toEqual(defaultPayoutSettings)
      const settings = { payoutDelayDays: 7, reservePercent: Amount(250_000_000n), reserveDays: 30, payoutSchedule: "weekly" as const, payoutMinimum: Amount(1_000_000_001n) }
      yield* repo.put(merchant.id, settings, AT)
      yield* repo.put(suspended.id, settings, AT)
      expect(yield* repo.get(merchant.id)).toEqual(settings)
      yield* repo.put(merchant.id, { ...settings, payoutDelayDays: null }, AT)
      expect((yield* repo.get(merchant.id)).payoutDelayDays).toBeNull()
      const weekly = yield* repo.approvedOnSchedule("weekly")
      expect(weekly).toContain(merchant.id)
      expect(weekly).not.toContain(suspended.id)
      expect(yield* repo.approvedOnSchedule("daily")).not.toContain(merchant.id)
    }))

  it.effect("recent net: the book's successful payments completed after the instant, less their reserve holds, with the earliest", () =>
    Effect.gen(function*() {
      const balances = yield* BalanceRepository
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency: "EUR" })
      const book = { merchantId: merchant.id, environment: "sandbox" as const, currency: "EUR" }
      const old = yield* paidPayment(merchant.id, { createdAt: AT, paidAt: plusSeconds(AT, 10) }, { currency: "EUR", amount: units(40) })
      const first = yield* paidPayment(merchant.id, { createdAt: AT, paidAt: plusSeconds(AT, 100) }, { currency: "EUR", amount: units(7) })
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: plusSeconds(AT, 200) }, { currency: "EUR", amount: Amount(123_456_789_012_345n) })
      // Other books: another currency, another environment.
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: plusSeconds(AT, 150) }, { currency: "USD", amount: units(1_000) })
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: plusSeconds(AT, 150) }, { currency: "EUR", amount: units(1_000), environment: "production" })
      yield* balances.hold({ ...book, walletId: wallet.id, reference: first.trxId, amount: units(2), heldAt: AT, releaseAt: plusSeconds(AT, 50) })
      yield* balances.hold({ ...book, walletId: wallet.id, reference: old.trxId, amount: units(4), heldAt: AT, releaseAt: plusSeconds(AT, 500) })
      expect(yield* balances.recentNet(book, plusSeconds(AT, 99))).toEqual({ net: Amount(units(5) + 123_456_789_012_345n), earliest: plusSeconds(AT, 100) })
      expect(yield* balances.recentNet(book, plusSeconds(AT, 100))).toEqual({ net: 123_456_789_012_345n, earliest: plusSeconds(AT, 200) })
      expect(yield* balances.recentNet(book, plusSeconds(AT, 200))).toEqual({ net: 0n, earliest: null })
      expect(yield* balances.reserved(book)).toBe(units(6))
    }))

  it.effect("reserve holds: due ones earliest first, each released once, then no longer reserved", () =>
    Effect.gen(function*() {
      const balances = yield* BalanceRepository
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id)
      const book = { merchantId: merchant.id, environment: "sandbox" as const, currency: "USD" }
      const later = unique("SANDBOX")
      const sooner = unique("SANDBOX")
      yield* balances.hold({ ...book, walletId: wallet.id, reference: later, amount: units(3), heldAt: AT, releaseAt: plusSeconds(AT, 20) })
      yield* balances.hold({ ...book, walletId: wallet.id, reference: sooner, amount: units(1), heldAt: AT, releaseAt: plusSeconds(AT, 10) })
      const due = (yield* balances.dueHolds(plusSeconds(AT, 20), 1_000)).filter((hold) => hold.merchantId === merchant.id)
      expect(due.map((hold) => [hold.reference, hold.amount, hold.walletId])).toEqual([[sooner, units(1), wallet.id], [later, units(3), wallet.id]])
      expect((yield* balances.dueHolds(plusSeconds(AT, 15), 1_000)).filter((hold) => hold.merchantId === merchant.id)).toHaveLength(1)
      expect(yield* balances.markReleased(due[0]!.id, plusSeconds(AT, 20))).toBe(true)
      expect(yield* balances.markReleased(due[0]!.id, plusSeconds(AT, 21))).toBe(false)
      expect(yield* balances.reserved(book)).toBe(units(3))
      expect((yield* balances.dueHolds(plusSeconds(AT, 20), 1_000)).filter((hold) => hold.merchantId === merchant.id).map((hold) => hold.reference)).toEqual([later])
    }))

  it.effect("automatic payout periods: claimed once per merchant, environment, currency and period", () =>
    Effect.gen(function*() {
      const balances = yield* BalanceRepository
      const merchant = yield* makeMerchant()
      const destination = unique("pd")
      yield* (yield* PayoutDestinationRepository).create({
        id: destination, merchantId: merchant.id, environment: "sandbox", type: "bank_account", accountHolder: "Shop",
        ibanMasked: "DE89 **** 00", sealedIban: unique("sealed"), bic: null, accountId: null, currency: "EUR", createdAt: AT
      }, 20)
      const payout = (id: string) => ({
        id, merchantId: merchant.id, environment: "sandbox" as const, currency: "EUR", amount: units(1), destinationId: destination,
        status: "pending" as const, reason: null, reference: null, rail: null, approvedAt: null, createdAt: AT, updatedAt: AT
      })
      const period = { merchantId: merchant.id, environment: "sandbox" as const, currency: "EUR", period: "2031-10-20" }
      const [first, second] = [unique("po"), unique("po")]
      yield* (yield* PayoutRepository).insert(payout(first))
      yield* (yield* PayoutRepository).insert(payout(second))
      expect(yield* balances.periodTaken(period)).toBe(false)
      expect(yield* balances.claimPeriod(period, first, AT)).toBe(true)
      expect(yield* balances.periodTaken(period)).toBe(true)
      expect(yield* balances.claimPeriod(period, second, AT)).toBe(false)
      expect(yield* balances.claimPeriod({ ...period, period: "2031-10-21" }, second, AT)).toBe(true)
      expect(yield* balances.claimPeriod({ ...period, currency: "USD" }, second, AT)).toBe(true)
    }))

  it.effect("a reserve held and released moves the wallet and the reserve hold account by the same amount, and a wallet is read locked", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const ledger = yield* Ledger
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency: "JPY" })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(100), reference: "float" })
      yield* wallets.post({ walletId: wallet.id, kind: "reserve_hold", delta: Amount(-units(9)), reference: "t1" })
      expect(yield* ledger.balanceOf("sandbox", "JPY", reserveHoldAccount(merchant.id))).toBe(-units(9))
      expect(Option.map(yield* wallets.findForUpdate(wallet.id), (each) => each.balance)).toEqual(Option.some(units(91)))
      yield* wallets.post({ walletId: wallet.id, kind: "reserve_release", delta: units(9), reference: "t1" })
      expect(yield* ledger.balanceOf("sandbox", "JPY", reserveHoldAccount(merchant.id))).toBe(0n)
      expect(yield* ledger.balanceOf("production", "JPY", reserveHoldAccount(merchant.id))).toBe(0n)
      expect(yield* wallets.ledgerSum(wallet.id)).toBe(units(100))
    }))

  it.effect("balance announcements: books with payments past their watermark, longest waiting first; the watermark moved once from where it was", () =>
    Effect.gen(function*() {
      const balances = yield* BalanceRepository
      const merchant = yield* makeMerchant()
      const at = (seconds: number) => plusSeconds(AT, seconds)
      const eur = { merchantId: merchant.id, environment: "sandbox" as const, currency: "EUR" }
      const mine = (through: number) =>
        Effect.map(balances.unannouncedBooks(at(through), 100_000), (books) => books.filter((book) => book.merchantId === merchant.id))
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: at(10) }, { currency: "EUR", amount: units(4) })
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: at(100) }, { currency: "EUR", amount: units(5) })
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: at(50) }, { currency: "USD", amount: units(6) })
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: at(20) }, { currency: "EUR", amount: units(7), environment: "production" })
      // Begun, never paid: no book's business.
      yield* (yield* PaymentRepository).insert(newPayment(merchant.id, { currency: "JPY", expiresAt: at(86_400) }), AT)
      expect(yield* mine(5)).toEqual([])
      expect(yield* mine(60)).toEqual([
        { ...eur, announcedThrough: null },
        { ...eur, environment: "production", announcedThrough: null },
        { ...eur, currency: "USD", announcedThrough: null }
      ])
      expect(yield* balances.lastCompleted(eur, null, at(99))).toEqual(at(10))
      expect(yield* balances.lastCompleted(eur, null, at(100))).toEqual(at(100))
      expect(yield* balances.lastCompleted(eur, at(10), at(99))).toBeNull()
      expect(yield* balances.lastCompleted({ ...eur, currency: "GBP" }, null, at(500))).toBeNull()

      expect(yield* balances.markAnnounced(eur, null, at(10))).toBe(true)
      expect(yield* balances.markAnnounced(eur, null, at(10))).toBe(false)
      expect(yield* balances.markAnnounced(eur, at(50), at(100))).toBe(false)
      expect((yield* mine(60)).map((book) => [book.environment, book.currency])).toEqual([["production", "EUR"], ["sandbox", "USD"]])
      expect((yield* mine(500)).find((book) => book.environment === "sandbox" && book.currency === "EUR")).toEqual({ ...eur, announcedThrough: at(10) })
      expect(yield* balances.markAnnounced(eur, at(10), at(100))).toBe(true)
      expect((yield* mine(500)).filter((book) => book.environment === "sandbox" && book.currency === "EUR")).toEqual([])
      yield* paidPayment(merchant.id, { createdAt: AT, paidAt: at(200) }, { currency: "EUR", amount: units(1) })
      expect((yield* mine(500)).filter((book) => book.environment === "sandbox" && book.currency === "EUR")).toEqual([{ ...eur, announcedThrough: at(100) }])
    }))
}
