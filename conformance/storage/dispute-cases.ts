import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { disputeHoldAccount, GATEWAY_CLEARING, walletAccount } from "../../core/ledger/account.js"
import { Ledger } from "../../core/ledger/ledger.js"
import { movementLines } from "../../core/ledger/movements.js"
import type { Dispute } from "../../core/disputes/dispute.js"
import { DisputeRepository } from "../../core/disputes/dispute-repository.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { Amount } from "../../core/money/amount.js"
import type { Environment } from "../../core/shared/environment.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { makeMerchant, makeWallet, paidPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const AT = fromSeconds(1_900_000_000)

const dispute = (merchantId: MerchantId, environment: Environment, trxId: string, second: number, overrides: Partial<Dispute> = {}): Dispute => ({
  id: `dp_${randomUUID().replaceAll("-", "")}`,
  merchantId,
  environment,
  paymentTrxId: trxId,
  currency: "USD",
  amount: units(10),
  fee: units(1),
  reason: "fraudulent",
  status: "needs_response",
  evidenceDueBy: plusSeconds(AT, second + 7 * 86_400),
  evidenceText: null,
  evidenceFiles: [],
  gatewayId: null,
  gatewayDisputeId: null,
  createdAt: plusSeconds(AT, second),
  updatedAt: plusSeconds(AT, second),
  ...overrides
})

const paid = (merchantId: MerchantId, environment: Environment = "sandbox") =>
  paidPayment(merchantId, { createdAt: AT, paidAt: plusSeconds(AT, 1) }, { environment })

export const disputeCases = (it: StorageIt) => {
  it.effect("disputes: round trip exact (evidence files too), found only by their merchant in their environment", () =>
    Effect.gen(function*() {
      const repo = yield* DisputeRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const payment = yield* paid(merchant.id)
      const written = dispute(merchant.id, "sandbox", payment.trxId, 2, { amount: Amount(123_456_789n), fee: Amount(0n) })
      yield* repo.insert(written)
      expect(yield* repo.findScoped(merchant.id, "sandbox", written.id)).toEqual(Option.some(written))
      expect(yield* repo.findById(written.id)).toEqual(Option.some(written))
      expect(Option.isNone(yield* repo.findScoped(merchant.id, "production", written.id))).toBe(true)
      expect(Option.isNone(yield* repo.findScoped(other.id, "sandbox", written.id))).toBe(true)
      const files = [{ name: "receipt.pdf", contentBase64: "JVBERi0xLjQK", size: 9 }]
      const reviewed = yield* repo.transition(written.id, "needs_response", { status: "under_review", evidence: { text: "Delivered on time.", files }, at: plusSeconds(AT, 3) })
      expect(Option.map(reviewed, (row) => [row.status, row.evidenceText, row.evidenceFiles, row.updatedAt])).toEqual(
        Option.some(["under_review", "Delivered on time.", files, plusSeconds(AT, 3)])
      )
      expect(yield* repo.findForUpdate(written.id)).toEqual(reviewed)
    }))

  it.effect("disputes: a transition moves only from the status it names, once; a gateway's id finds its dispute", () =>
    Effect.gen(function*() {
      const repo = yield* DisputeRepository
      const merchant = yield* makeMerchant()
      const payment = yield* paid(merchant.id)
      const gateway = yield* (yield* GatewayRepository).create({ plugin: "sandbox", name: "Cards", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {} })
      const written = dispute(merchant.id, "sandbox", payment.trxId, 1, { gatewayId: gateway.id, gatewayDisputeId: `du_${randomUUID()}` })
      yield* repo.insert(written)
      expect(Option.map(yield* repo.findByGatewayId(gateway.id, written.gatewayDisputeId!), (row) => row.id)).toEqual(Option.some(written.id))
      expect(Option.isNone(yield* repo.findByGatewayId(gateway.id, "du_other"))).toBe(true)
      // One gateway's id names one dispute: a second report under it cannot open another.
      const again = yield* Effect.either(repo.insert({ ...written, id: `dp_${randomUUID().replaceAll("-", "")}` }))
      expect(again._tag).toBe("Left")
      const won = { status: "won" as const, at: plusSeconds(AT, 5) }
      expect(Option.map(yield* repo.transition(written.id, "needs_response", won), (row) => row.status)).toEqual(Option.some("won"))
      expect(Option.isNone(yield* repo.transition(written.id, "needs_response", { status: "lost", at: plusSeconds(AT, 6) }))).toBe(true)
    }))

  it.effect("disputes: what a payment's disputes hold counts the open and the lost ones, not the won", () =>
    Effect.gen(function*() {
      const repo = yield* DisputeRepository
      const merchant = yield* makeMerchant()
      const payment = yield* paid(merchant.id)
      expect(yield* repo.heldOfPayment(payment.trxId)).toBe(0n)
      const [open, lost, won] = [1, 2, 3].map((second) => dispute(merchant.id, "sandbox", payment.trxId, second, { amount: units(second) }))
      for (const each of [open!, lost!, won!]) yield* repo.insert(each)
      yield* repo.transition(lost!.id, "needs_response", { status: "lost", at: plusSeconds(AT, 9) })
      yield* repo.transition(won!.id, "needs_response", { status: "won", at: plusSeconds(AT, 9) })
      expect(yield* repo.heldOfPayment(payment.trxId)).toBe(units(3))
    }))

  it.effect("disputes: listed newest first by merchant and environment, by status or by payment, paged after a position", () =>
    Effect.gen(function*() {
      const repo = yield* DisputeRepository
      const merchant = yield* makeMerchant()
      const payment = yield* paid(merchant.id)
      const production = yield* paid(merchant.id, "production")
      const rows = [1, 2, 3].map((second) => dispute(merchant.id, "sandbox", payment.trxId, second))
      for (const row of rows) yield* repo.insert(row)
      yield* repo.insert(dispute(merchant.id, "production", production.trxId, 4))
      const listed = yield* repo.list({ merchantId: merchant.id, environment: "sandbox", limit: 10 })
      expect(listed.map((row) => row.id)).toEqual([rows[2]!.id, rows[1]!.id, rows[0]!.id])
      const after = yield* repo.list({ merchantId: merchant.id, environment: "sandbox", limit: 10, before: { createdAt: rows[1]!.createdAt, id: rows[1]!.id } })
      expect(after.map((row) => row.id)).toEqual([rows[0]!.id])
      yield* repo.transition(rows[0]!.id, "needs_response", { status: "lost", at: plusSeconds(AT, 9) })
      const lost = yield* repo.list({ merchantId: merchant.id, status: "lost", limit: 10 })
      expect(lost.map((row) => row.id)).toEqual([rows[0]!.id])
      const other = yield* paid(merchant.id)
      const elsewhere = dispute(merchant.id, "sandbox", other.trxId, 5)
      yield* repo.insert(elsewhere)
      const ofPayment = yield* repo.list({ merchantId: merchant.id, environment: "sandbox", paymentTrxId: payment.trxId, limit: 10 })
      expect(ofPayment.map((row) => row.id)).toEqual([rows[2]!.id, rows[1]!.id, rows[0]!.id])
      expect((yield* repo.list({ merchantId: merchant.id, paymentTrxId: other.trxId, limit: 10 })).map((row) => row.id)).toEqual([elsewhere.id])
    }))

  it.effect("disputes: a dispute's debit takes a wallet below zero, no other debit does, and later credits pay the debt back", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const currency = `D${randomUUID().replaceAll("-", "").slice(0, 9).toUpperCase()}`
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id, { currency, environment: "sandbox" })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(5), reference: "admin" })
      const debit = yield* wallets.post({ walletId: wallet.id, kind: "dispute_debit", delta: Amount(-units(12)), fee: units(2), reference: "dp_1" })
      expect([debit.kind, debit.balanceAfter]).toEqual(["dispute_debit", -units(7)])
      for (const kind of ["refund_debit", "payout_debit", "adjustment"] as const) {
        const refused = yield* Effect.flip(wallets.post({ walletId: wallet.id, kind, delta: Amount(-units(1)), reference: "x" }))
        expect(refused._tag).toBe("InsufficientBalance")
      }
      yield* wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: units(4), fee: Amount(0n), reference: "TRX" })
      yield* wallets.post({ walletId: wallet.id, kind: "dispute_return", delta: units(10), reference: "dp_1" })
      expect(Option.map(yield* wallets.findById(wallet.id), (each) => each.balance)).toEqual(Option.some(units(7)))
      expect(yield* wallets.ledgerSum(wallet.id)).toBe(units(7))
      yield* wallets.post({ walletId: wallet.id, kind: "dispute_debit", delta: Amount(-units(3)), fee: Amount(0n), reference: "dp_2" })
      yield* (yield* Ledger).record({
        kind: "dispute_lost",
        environment: "sandbox",
        currency,
        reference: "dp_2",
        lines: movementLines({ kind: "dispute_lost", merchantId: merchant.id, amount: units(3) })
      })
      const balances = Object.fromEntries((yield* (yield* Ledger).balances("sandbox", currency)).map(({ account, balance }) => [account, balance]))
      expect(balances[walletAccount(merchant.id)]).toBe(-units(4))
      expect(balances[disputeHoldAccount(merchant.id)] ?? 0n).toBe(0n)
      expect(balances[GATEWAY_CLEARING]).toBe(-units(2) - units(3) + units(4))
      expect(Object.values(balances).reduce((sum, each) => sum + (each ?? 0n), 0n)).toBe(0n)
    }))

  it.effect("merchants: the dispute fee is 0 unless set, kept exact", () =>
    Effect.gen(function*() {
      const merchants = yield* MerchantRepository
      const merchant = yield* makeMerchant()
      expect(merchant.disputeFee).toBe(0n)
      const updated = yield* merchants.update(merchant.id, { disputeFee: Amount(1_500_000_001n) })
      expect(Option.map(updated, (each) => each.disputeFee)).toEqual(Option.some(1_500_000_001n))
    }))
}
