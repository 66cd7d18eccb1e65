import { expect } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { Amount } from "../../core/money/amount.js"
import * as CurrencyCatalog from "../../core/money/currency-catalog.js"
import { now, toIsoString } from "../../core/shared/instant.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { statementCsv } from "../../core/wallets/statement-csv.js"
import { walletStatement } from "../../core/wallets/statement.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { makeMerchant, makeWallet, paidPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const HEADER = "entry_id,created_at,kind,amount,balance_after,currency,payment_trx_id,refund_trx_id,reference,memo\r\n"

/** A wallet's statement as the dashboard reads it: the ledger reads, pages newest first, and the CSV export. */
export const statementCases = (it: StorageIt) => {
  it.effect("ledger reads: newest first before an id, oldest first after one, one wallet only, each with its payment", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id)
      const other = yield* makeWallet(merchant.id, { currency: "EUR" })
      const at = yield* now
      const payment = yield* paidPayment(merchant.id, { createdAt: at, paidAt: at })
      const refundTrxId = unique("SANDBOX_RF")
      yield* (yield* RefundRepository).insert({
        refundTrxId,
        paymentTrxId: payment.trxId,
        merchantId: merchant.id,
        environment: "sandbox",
        amount: units(30),
        currency: "USD",
        reason: "damaged",
        refRefund: null,
        totalRefunded: units(30),
        remainingRefund: units(70)
      })
      const credit = yield* wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: units(100), fee: Amount(0n), reference: payment.trxId })
      yield* wallets.post({ walletId: other.id, kind: "adjustment", delta: units(5), reference: "admin" })
      const debit = yield* wallets.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-units(30)), reference: refundTrxId, memo: "damaged" })
      const adjustment = yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(2), reference: "admin", memo: "goodwill" })

      const newest = yield* wallets.ledgerBefore(wallet.id, { limit: 10 })
      expect(newest.map((entry) => [entry.id, entry.kind, entry.delta, entry.balanceAfter, entry.paymentTrxId, entry.memo])).toEqual([
        [adjustment.id, "adjustment", units(2), units(72), null, "goodwill"],
        [debit.id, "refund_debit", -units(30), units(70), payment.trxId, "damaged"],
        [credit.id, "payment_credit", units(100), units(100), payment.trxId, null]
      ])
      expect(newest[2]).toEqual({ ...credit, paymentTrxId: payment.trxId })
      expect((yield* wallets.ledgerBefore(wallet.id, { beforeId: adjustment.id, limit: 1 })).map((entry) => entry.id)).toEqual([debit.id])
      expect(yield* wallets.ledgerBefore(wallet.id, { beforeId: credit.id, limit: 10 })).toEqual([])
      expect((yield* wallets.ledgerAfter(wallet.id, { afterId: 0, limit: 2 })).map((entry) => entry.id)).toEqual([credit.id, debit.id])
      expect((yield* wallets.ledgerAfter(wallet.id, { afterId: debit.id, limit: 2 })).map((entry) => entry.id)).toEqual([adjustment.id])
      expect(yield* wallets.ledgerAfter(wallet.id, { afterId: adjustment.id, limit: 2 })).toEqual([])
    }))

  it.effect("statement: keyset pages newest first down to the first entry; another scope's wallet is not found", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const merchant = yield* makeMerchant()
      const scope = { merchant, environment: "sandbox" } as const
      const wallet = yield* makeWallet(merchant.id)
      const posted = []
      for (let i = 1; i <= 5; i++) posted.push(yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(i), reference: "admin" }))

      const first = yield* walletStatement(scope, wallet.id, { limit: 2 })
      expect(first.wallet.balance).toBe(units(15))
      expect(first.entries.map((entry) => [entry.amount, entry.balanceAfter])).toEqual([[units(5), units(15)], [units(4), units(10)]])
      const second = yield* walletStatement(scope, wallet.id, { limit: 2, cursor: first.nextCursor! })
      const third = yield* walletStatement(scope, wallet.id, { limit: 2, cursor: second.nextCursor! })
      expect([...first.entries, ...second.entries, ...third.entries].map((entry) => entry.id)).toEqual(posted.map((entry) => entry.id).reverse())
      expect(third.nextCursor).toBeNull()

      const production = yield* makeWallet(merchant.id, { environment: "production" })
      const stranger = { merchant: yield* makeMerchant(), environment: "sandbox" } as const
      expect((yield* Effect.flip(walletStatement(stranger, wallet.id, { limit: 2 })))._tag).toBe("WalletNotFound")
      expect((yield* Effect.flip(walletStatement(scope, production.id, { limit: 2 })))._tag).toBe("WalletNotFound")
      expect((yield* Effect.flip(walletStatement(scope, wallet.id, { limit: 2, cursor: "nonsense!" })))._tag).toBe("ValidationFailed")
      expect((yield* Effect.flip(walletStatement(scope, wallet.id, { limit: 0 })))._tag).toBe("ValidationFailed")
    }))

  it.effect("statement CSV: oldest first in batches, exact major units, quoted and defused text, up to the export's start", () =>
    Effect.gen(function*() {
      const wallets = yield* WalletRepository
      const merchant = yield* makeMerchant()
      const scope = { merchant, environment: "sandbox" } as const
      const wallet = yield* makeWallet(merchant.id, { currency: "KWD" })
      const credit = yield* wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: Amount(1_234_500_000n), fee: Amount(0n), reference: "SANDBOX_PAY1" })
      const debit = yield* wallets.post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-50_000n), reference: "SANDBOX_RF1", memo: "=HYPERLINK(\"x\")" })
      const adjustment = yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(1), reference: "admin", memo: "late, \"fee\"\nback" })

      // Batches of one: every step of the keyset read is taken.
      const csv = yield* statementCsv(scope, wallet.id, { batchSize: 1 })
      yield* wallets.post({ walletId: wallet.id, kind: "adjustment", delta: units(9), reference: "admin", memo: "after the export began" })
      const chunks = Chunk.toReadonlyArray(yield* Stream.runCollect(csv))
      expect(chunks.length).toBe(4)
      expect(chunks.join("")).toBe(
        HEADER +
          `${credit.id},${toIsoString(credit.createdAt)},payment_credit,12.345,12.345,KWD,SANDBOX_PAY1,,SANDBOX_PAY1,\r\n` +
          `${debit.id},${toIsoString(debit.createdAt)},refund_debit,-0.0005,12.3445,KWD,,SANDBOX_RF1,SANDBOX_RF1,"'=HYPERLINK(""x"")"\r\n` +
          `${adjustment.id},${toIsoString(adjustment.createdAt)},adjustment,1.000,13.3445,KWD,,,admin,"late, ""fee""\nback"\r\n`
      )

      const empty = yield* makeWallet(merchant.id, { currency: "JPY" })
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(yield* statementCsv(scope, empty.id)))).toEqual([HEADER])
      const stranger = { merchant: yield* makeMerchant(), environment: "sandbox" } as const
      expect((yield* Effect.flip(statementCsv(stranger, wallet.id)))._tag).toBe("WalletNotFound")
    }).pipe(Effect.provide(CurrencyCatalog.layer())))
}
