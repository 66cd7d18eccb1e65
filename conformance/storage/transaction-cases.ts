import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { Amount } from "../../core/money/amount.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { MerchantId } from "../../core/shared/ids.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { makeMerchant, makeWallet, newPayment, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

class Boom {
  readonly _tag = "Boom"
}

export const transactionCases = (it: StorageIt) => {
  it.effect("transaction: a failure rolls back every write made inside it", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactor
      const merchants = yield* MerchantRepository
      const wallets = yield* WalletRepository
      const payments = yield* PaymentRepository
      const existing = yield* makeWallet((yield* makeMerchant()).id)
      const at = yield* now
      const written: { merchantId?: number; trxId?: string } = {}

      const failure = yield* Effect.flip(
        withTransaction(
          Effect.gen(function*() {
            const merchant = yield* makeMerchant()
            written.merchantId = merchant.id
            yield* wallets.post({ walletId: existing.id, kind: "payment_credit", delta: units(50), fee: Amount(0n), reference: "rolled-back" })
            const payment = yield* payments.insert(newPayment(merchant.id, { expiresAt: plusSeconds(at, 60) }), at)
            written.trxId = payment.trxId
            return yield* Effect.fail(new Boom())
          })
        )
      )
      expect(failure).toBeInstanceOf(Boom)
      expect(yield* merchants.findById(MerchantId(written.merchantId!))).toEqual(Option.none())
      expect(yield* payments.findByTrxId(written.trxId!)).toEqual(Option.none())
      expect(Option.map(yield* wallets.findById(existing.id), (w) => w.balance)).toEqual(Option.some(0n))
      expect(yield* wallets.ledger(existing.id)).toEqual([])
    }))

  it.effect("transaction: a successful block commits everything", () =>
    Effect.gen(function*() {
      const { withTransaction } = yield* Transactor
      const wallets = yield* WalletRepository
      const wallet = yield* makeWallet((yield* makeMerchant()).id)
      yield* withTransaction(
        Effect.all([
          wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: units(5), fee: Amount(0n), reference: "a" }),
          wallets.post({ walletId: wallet.id, kind: "payment_credit", delta: units(7), fee: Amount(0n), reference: "b" })
        ])
      )
      expect(Option.map(yield* wallets.findById(wallet.id), (w) => w.balance)).toEqual(Option.some(units(12)))
      expect(yield* wallets.ledgerSum(wallet.id)).toBe(units(12))
    }))
}
