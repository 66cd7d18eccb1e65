import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { PLATFORM_PAYOUTS_PAID, payoutsInTransitAccount, walletAccount } from "../../core/ledger/account.js"
import { Ledger } from "../../core/ledger/ledger.js"
import { movementLines } from "../../core/ledger/movements.js"
import { Amount } from "../../core/money/amount.js"
import type { Payout } from "../../core/payouts/payout.js"
import { PayoutDestinationRepository } from "../../core/payouts/payout-destination-repository.js"
import { PayoutRepository } from "../../core/payouts/payout-repository.js"
import type { Environment } from "../../core/shared/environment.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { makeMerchant, makeWallet, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const AT = fromSeconds(1_900_000_000)

const payoutId = () => `po_${randomUUID().replaceAll("-", "")}`

/** A destination to name: payouts.destination_id references one. */
const makeDestination = (merchantId: MerchantId, environment: Environment, currency: string) =>
  Effect.gen(function*() {
    const id = unique("pd")
    yield* (yield* PayoutDestinationRepository).create({
      id,
      merchantId,
      environment,
      type: "bank_account",
      accountHolder: "Example Shop GmbH",
      ibanMasked: "DE89 **** **** **** **30 00",
      sealedIban: unique("v1.sealed"),
      bic: null,
      accountId: null,
      currency,
      createdAt: AT
    }, 20)
    return id
  })

const payout = (merchantId: MerchantId, environment: Environment, destinationId: string, second: number, overrides: Partial<Payout> = {}): Payout => ({
  id: payoutId(),
  merchantId,
  environment,
  currency: "EUR",
  amount: units(10),
  destinationId,
  status: "pending",
  reason: null,
  reference: null,
  rail: null,
  approvedAt: null,
  createdAt: plusSeconds(AT, second),
  updatedAt: plusSeconds(AT, second),
  ...overrides
})

export const payoutCases = (it: StorageIt) => {
  it.effect("payouts: round trip exact, found only by their merchant in their environment", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const destination = yield* makeDestination(merchant.id, "sandbox", "EUR")
      const written = payout(merchant.id, "sandbox", destination, 1, { amount: Amount(123_456_789n), reason: "why", reference: "ref" })
      yield* repo.insert(written)
      expect(yield* repo.findScoped(merchant.id, "sandbox", written.id)).toEqual(Option.some(written))
      expect(yield* repo.findForUpdate(written.id)).toEqual(Option.some(written))
      expect(Option.isNone(yield* repo.findScoped(merchant.id, "production", written.id))).toBe(true)
      expect(Option.isNone(yield* repo.findScoped(other.id, "sandbox", written.id))).toBe(true)
    }))

  it.effect("payouts: a transition moves only from the status it names, once", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutRepository
      const merchant = yield* makeMerchant()
      const destination = yield* makeDestination(merchant.id, "sandbox", "EUR")
      const written = payout(merchant.id, "sandbox", destination, 1)
      yield* repo.insert(written)
      const change = { status: "approved" as const, reason: null, reference: null, at: plusSeconds(AT, 5) }
      const moved = yield* repo.transition(written.id, "pending", change)
      expect(Option.map(moved, (row) => [row.status, row.updatedAt])).toEqual(Option.some(["approved", plusSeconds(AT, 5)]))
      expect(Option.isNone(yield* repo.transition(written.id, "pending", change))).toBe(true)
      const paid = yield* repo.transition(written.id, "approved", { status: "paid", reason: null, reference: "BANK-1", at: plusSeconds(AT, 6) })
      expect(Option.map(paid, (row) => [row.status, row.reference])).toEqual(Option.some(["paid", "BANK-1"]))
    }))

  it.effect("payouts: listed newest first by merchant and environment, or by status, paged after a position", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutRepository
      const merchant = yield* makeMerchant()
      const destination = yield* makeDestination(merchant.id, "sandbox", "EUR")
      const production = yield* makeDestination(merchant.id, "production", "EUR")
      const rows = [1, 2, 3].map((second) => payout(merchant.id, "sandbox", destination, second))
      for (const row of rows) yield* repo.insert(row)
      yield* repo.insert(payout(merchant.id, "production", production, 4))
      const listed = yield* repo.list({ merchantId: merchant.id, environment: "sandbox", limit: 10 })
      expect(listed.map((row) => row.id)).toEqual([rows[2]!.id, rows[1]!.id, rows[0]!.id])
      const after = yield* repo.list({ merchantId: merchant.id, environment: "sandbox", limit: 10, before: { createdAt: rows[1]!.createdAt, id: rows[1]!.id } })
      expect(after.map((row) => row.id)).toEqual([rows[0]!.id])
      yield* repo.transition(rows[0]!.id, "pending", { status: "rejected", reason: "no", reference: null, at: plusSeconds(AT, 9) })
      const rejected = yield* repo.list({ merchantId: merchant.id, status: "rejected", limit: 10 })
      expect(rejected.map((row) => [row.id, row.reason])).toEqual([[rows[0]!.id, "no"]])
    }))

  it.effect("payouts: a requested payout moves the wallet into payouts in transit, and a paid one out to the platform's payouts paid", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const currency = `P${randomUUID().replaceAll("-", "").slice(0, 9).toUpperCase()}`
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency, environment: "sandbox" })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(50), reference: "admin" })
      const debit = yield* wallets.post({ walletId: wallet.id, kind: "payout_debit", delta: Amount(-units(20)), reference: "po_1" })
      expect([debit.kind, debit.balanceAfter]).toEqual(["payout_debit", units(30)])
      const refused = yield* Effect.flip(wallets.post({ walletId: wallet.id, kind: "payout_debit", delta: Amount(-units(31)), reference: "po_2" }))
      expect(refused._tag).toBe("InsufficientBalance")
      yield* (yield* Ledger).record({
        kind: "payout_paid",
        environment: "sandbox",
        currency,
        reference: "po_1",
        lines: movementLines({ kind: "payout_paid", merchantId: merchant.id, amount: units(15) })
      })
      yield* wallets.post({ walletId: wallet.id, kind: "payout_return", delta: units(5), reference: "po_1" })
      const balances = Object.fromEntries((yield* (yield* Ledger).balances("sandbox", currency)).map(({ account, balance }) => [account, balance]))
      expect(balances[walletAccount(merchant.id)]).toBe(-units(35))
      expect(balances[payoutsInTransitAccount(merchant.id)]).toBe(0n)
      expect(balances[PLATFORM_PAYOUTS_PAID]).toBe(-units(15))
      expect(Object.values(balances).reduce((sum, each) => sum + (each ?? 0n), 0n)).toBe(0n)
    }))

  it.effect("payouts: approval names the rail and the time; the still-approved of a rail, book and day are listed oldest approval first", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutRepository
      const merchant = yield* makeMerchant()
      const destination = yield* makeDestination(merchant.id, "sandbox", "EUR")
      const [early, late, paid, otherRail, otherDay, pending] = Array.from({ length: 6 }, (_, i) => payout(merchant.id, "sandbox", destination, i))
      const dollars = payout(merchant.id, "sandbox", destination, 7, { currency: "USD" })
      for (const row of [early, late, paid, otherRail, otherDay, pending, dollars]) yield* repo.insert(row!)
      const approve = (row: Payout, second: number, rail: string | null = "manual") =>
        repo.transition(row.id, "pending", { status: "approved", reason: null, reference: null, at: plusSeconds(AT, second), rail })
      const approvedLate = yield* approve(late!, 200)
      expect(Option.map(approvedLate, (row) => [row.rail, row.approvedAt])).toEqual(Option.some(["manual", plusSeconds(AT, 200)]))
      yield* approve(early!, 100)
      yield* approve(paid!, 150)
      yield* approve(otherRail!, 160, "stripe-checkout")
      yield* approve(otherDay!, 100_000)
      yield* approve(dollars, 170)
      // A later change keeps the rail and the approval time.
      const markedPaid = yield* repo.transition(paid!.id, "approved", { status: "paid", reason: null, reference: "BANK", at: plusSeconds(AT, 300) })
      expect(Option.map(markedPaid, (row) => [row.rail, row.approvedAt])).toEqual(Option.some(["manual", plusSeconds(AT, 150)]))
      const listed = yield* repo.listApproved({ rail: "manual", environment: "sandbox", currency: "EUR", from: AT, until: plusSeconds(AT, 86_400) })
      expect(listed.filter((row) => row.merchantId === merchant.id).map((row) => row.id)).toEqual([early!.id, late!.id])
      expect(Option.map(yield* repo.findForUpdate(pending!.id), (row) => [row.rail, row.approvedAt])).toEqual(Option.some([null, null]))
    }))
}
