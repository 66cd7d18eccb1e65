import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Amount, MAX_AMOUNT, MAX_BALANCE } from "../../core/money/amount.js"
import { WalletId } from "../../core/shared/ids.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { makeMerchant, makeWallet, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

export const walletCases = (it: StorageIt) => {
  it.effect("wallet: round trip, one per merchant + currency + environment, activation", () =>
    Effect.gen(function*() {
      const repo = yield* WalletRepository
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency: "USD", environment: "sandbox" })
      expect([wallet.balance, wallet.active, wallet.currency, wallet.environment]).toEqual([0n, true, "USD", "sandbox"])
      expect(yield* repo.findById(wallet.id)).toEqual(Option.some(wallet))
      expect(yield* repo.find(merchant.id, "USD", "sandbox")).toEqual(Option.some(wallet))

      const duplicate = yield* Effect.flip(makeWallet(merchant.id, { currency: "USD", environment: "sandbox" }))
      expect(duplicate._tag).toBe("WalletExists")
      // The same currency in the other environment is a separate wallet: sandbox money never meets production.
      const production = yield* makeWallet(merchant.id, { currency: "USD", environment: "production" })
      expect(production.id).not.toBe(wallet.id)
      expect((yield* repo.listByMerchant(merchant.id)).map((w) => w.id)).toEqual([wallet.id, production.id])

      const inactive = yield* repo.setActive(wallet.id, false)
      expect(Option.map(inactive, (w) => w.active)).toEqual(Option.some(false))
      expect(yield* repo.setActive(WalletId(987_654_321), true)).toEqual(Option.none())
    }))

  it.effect("wallet: credits and debits write ledger entries that sum to the balance, exactly at the maximum", () =>
    Effect.gen(function*() {
      const repo = yield* WalletRepository
      const wallet = yield* makeWallet((yield* makeMerchant()).id)
      const credit = yield* repo.post({ walletId: wallet.id, kind: "payment_credit", delta: MAX_AMOUNT, fee: Amount(0n), reference: "trx-1" })
      expect([credit.delta, credit.balanceAfter, credit.kind, credit.reference, credit.memo]).toEqual([
        MAX_AMOUNT,
        MAX_AMOUNT,
        "payment_credit",
        "trx-1",
        null
      ])
      const debit = yield* repo.post({
        walletId: wallet.id,
        kind: "refund_debit",
        delta: Amount(-1n),
        reference: "refund-1",
        memo: "one atom"
      })
      expect(debit.balanceAfter).toBe(MAX_AMOUNT - 1n)
      const stored = yield* repo.findById(wallet.id)
      expect(Option.map(stored, (w) => w.balance)).toEqual(Option.some(MAX_AMOUNT - 1n))
      expect(yield* repo.ledgerSum(wallet.id)).toBe(MAX_AMOUNT - 1n)
      expect((yield* repo.ledger(wallet.id)).map((e) => [e.delta, e.balanceAfter, e.memo])).toEqual([
        [MAX_AMOUNT, MAX_AMOUNT, null],
        [-1n, MAX_AMOUNT - 1n, "one atom"]
      ])
    }))

  it.effect("wallet: a debit below zero, a credit past BIGINT, or a missing wallet write nothing", () =>
    Effect.gen(function*() {
      const repo = yield* WalletRepository
      const wallet = yield* makeWallet((yield* makeMerchant()).id)
      yield* repo.post({ walletId: wallet.id, kind: "adjustment", delta: units(5), reference: "seed" })
      const tooMuch = yield* Effect.flip(repo.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-units(5) - 1n), reference: "r" }))
      expect(tooMuch._tag).toBe("InsufficientBalance")

      yield* repo.post({ walletId: wallet.id, kind: "adjustment", delta: Amount(MAX_BALANCE - units(5)), reference: "fill" })
      const overflow = yield* Effect.flip(repo.post({ walletId: wallet.id, kind: "adjustment", delta: Amount(1n), reference: "o" }))
      expect(overflow._tag).toBe("BalanceOverflow")

      const missing = yield* Effect.flip(repo.post({ walletId: WalletId(987_654_321), kind: "adjustment", delta: Amount(1n), reference: "m" }))
      expect(missing._tag).toBe("WalletNotFound")

      expect(Option.map(yield* repo.findById(wallet.id), (w) => w.balance)).toEqual(Option.some(MAX_BALANCE))
      expect((yield* repo.ledger(wallet.id)).length).toBe(2)
      expect(yield* repo.ledgerSum(wallet.id)).toBe(MAX_BALANCE)
    }))

  it.effect("wallet: 20 concurrent debits never take the balance below zero and the ledger agrees", () =>
    Effect.gen(function*() {
      const repo = yield* WalletRepository
      const wallet = yield* makeWallet((yield* makeMerchant()).id)
      // 10.00 available, 20 debits of 0.75: exactly 13 fit (9.75), 7 must be refused.
      yield* repo.post({ walletId: wallet.id, kind: "adjustment", delta: units(10), reference: "seed" })
      const debit = Amount(-75_000_000n)
      const results = yield* Effect.all(
        Array.from({ length: 20 }, (_, i) =>
          Effect.either(repo.post({ walletId: wallet.id, kind: "refund_debit", delta: debit, reference: `debit-${i}` }))),
        { concurrency: "unbounded" }
      )
      const succeeded = results.filter(Either.isRight)
      const refused = results.filter(Either.isLeft)
      expect(succeeded.length).toBe(13)
      expect(refused.every((r) => r.left._tag === "InsufficientBalance")).toBe(true)
      const balance = Option.getOrThrow(yield* repo.findById(wallet.id)).balance
      expect(balance).toBe(units(10) - 13n * 75_000_000n)
      expect(yield* repo.ledgerSum(wallet.id)).toBe(balance)
      const afters = succeeded.map((r) => r.right.balanceAfter).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      expect(new Set(afters).size).toBe(13)
      expect(afters.every((after) => after >= 0n)).toBe(true)
    }))
}
