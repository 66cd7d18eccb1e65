import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import { GATEWAY_CLEARING, PLATFORM_ADJUSTMENTS, PLATFORM_FEES, walletAccount } from "../../core/ledger/account.js"
import { Ledger } from "../../core/ledger/ledger.js"
import { Amount } from "../../core/money/amount.js"
import type { Environment } from "../../core/shared/environment.js"
import { Transactor } from "../../core/shared/transactor.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { makeMerchant, makeWallet, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

/** A currency code of its own, so a case's book holds its own entries only (cases share one store). */
const ownCurrency = () => `L${randomUUID().replaceAll("-", "").slice(0, 9).toUpperCase()}`

const book = (environment: Environment, currency: string) =>
  Effect.flatMap(Ledger, (ledger) => ledger.balances(environment, currency)).pipe(
    Effect.map((accounts) => Object.fromEntries(accounts.map(({ account, balance }) => [account, balance])))
  )

export const ledgerCases = (it: StorageIt) => {
  it.effect("ledger: each wallet posting writes its balanced entry in the wallet's book, and the wallet's account is minus its balance", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const currency = ownCurrency()
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency, environment: "production" })
      yield* wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: units(97), fee: units(3), reference: "trx-1" })
      yield* wallets.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-units(30)), reference: "refund-1" })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: Amount(-units(2)), reference: "admin" })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(5), reference: "admin" })

      expect(yield* book("production", currency)).toEqual({
        [GATEWAY_CLEARING]: units(100 - 30),
        [PLATFORM_FEES]: -units(3),
        [PLATFORM_ADJUSTMENTS]: units(5 - 2),
        [walletAccount(merchant.id)]: -units(97 - 30 - 2 + 5)
      })
      const balance = Option.getOrThrow(yield* wallets.findById(wallet.id)).balance
      expect(balance).toBe(units(70))
      // Sandbox and production are separate books: nothing of this is in the sandbox one.
      expect(yield* book("sandbox", currency)).toEqual({})
    }))

  it.effect("ledger: a refused posting and a rolled-back one write no journal lines", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const currency = ownCurrency()
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(1), reference: "seed" })
      const refused = yield* Effect.flip(wallets.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-units(2)), reference: "r" }))
      expect(refused._tag).toBe("InsufficientBalance")
      const { withTransaction } = yield* Transactor
      yield* Effect.exit(withTransaction(Effect.zipRight(
        wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: units(50), fee: units(1), reference: "rolled-back" }),
        Effect.fail("rolled back")
      )))
      expect(yield* book("sandbox", currency)).toEqual({
        [PLATFORM_ADJUSTMENTS]: units(1),
        [walletAccount(merchant.id)]: -units(1)
      })
    }))

  it.effect("ledger: record writes an entry that moves no wallet; an unbalanced one or one naming a wallet is a defect and writes nothing", () =>
    Effect.gen(function*() {
      const ledger = yield* Ledger
      const currency = ownCurrency()
      yield* ledger.record({
        kind: "payment_completed",
        environment: "sandbox",
        currency,
        reference: "fee-only",
        lines: [{ account: GATEWAY_CLEARING, amount: units(2) }, { account: PLATFORM_FEES, amount: Amount(-units(2)) }]
      })
      const unbalanced = yield* Effect.exit(ledger.record({
        kind: "adjustment",
        environment: "sandbox",
        currency,
        reference: "unbalanced",
        lines: [{ account: GATEWAY_CLEARING, amount: units(1) }, { account: PLATFORM_FEES, amount: Amount(-units(2)) }]
      }))
      const namesWallet = yield* Effect.exit(ledger.record({
        kind: "adjustment",
        environment: "sandbox",
        currency,
        reference: "wallet",
        lines: [{ account: "merchant:1:wallet", amount: units(1) }, { account: PLATFORM_ADJUSTMENTS, amount: Amount(-units(1)) }]
      }))
      for (const exit of [unbalanced, namesWallet]) expect(Exit.isFailure(exit) && Cause.isDie(exit.cause)).toBe(true)
      expect(yield* ledger.balances("sandbox", currency)).toEqual([
        { account: GATEWAY_CLEARING, balance: units(2) },
        { account: PLATFORM_FEES, balance: -units(2) }
      ])
    }))

  it.effect("ledger: 20 concurrent debits leave the wallet's account at exactly minus its balance", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const currency = ownCurrency()
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(10), reference: "seed" })
      yield* Effect.all(
        Array.from({ length: 20 }, (_, i) =>
          Effect.either(wallets.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-75_000_000n), reference: `debit-${i}` }))),
        { concurrency: "unbounded" }
      )
      const balance = Option.getOrThrow(yield* wallets.findById(wallet.id)).balance
      const books = yield* book("sandbox", currency)
      expect(books[walletAccount(merchant.id)]).toBe(-balance)
      expect(Object.values(books).reduce((sum, each) => sum + each, 0n)).toBe(0n)
    }))

  it.effect("ledger: the entries naming a reference, of the kinds asked, oldest first, each with its lines", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const currency = ownCurrency()
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency })
      const reference = `po_${randomUUID().replaceAll("-", "")}`
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(50), reference })
      yield* wallets.post({ walletId: wallet.id, kind: "payout_debit", delta: Amount(-units(20)), reference })
      yield* wallets.post({ walletId: wallet.id, kind: "payout_return", delta: units(20), reference })
      const entries = yield* (yield* Ledger).entriesOf(reference, ["payout_requested", "payout_paid", "payout_returned"])
      expect(entries.map((entry) => [entry.kind, entry.reference, entry.environment, entry.currency])).toEqual([
        ["payout_requested", reference, "sandbox", currency],
        ["payout_returned", reference, "sandbox", currency]
      ])
      expect(entries[0]!.id).toBeLessThan(entries[1]!.id)
      expect(entries[0]!.lines).toEqual([
        { account: `merchant:${merchant.id}:payouts-in-transit`, amount: -units(20) },
        { account: walletAccount(merchant.id), amount: units(20) }
      ])
      expect(typeof entries[0]!.createdAt).toBe("bigint")
      expect(yield* (yield* Ledger).entriesOf("no-such-reference", ["payout_requested"])).toEqual([])
      expect(yield* (yield* Ledger).entriesOf(reference, [])).toEqual([])
    }))
}
