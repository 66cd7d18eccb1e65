import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { Amount, MAX_AMOUNT } from "../../core/money/amount.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { GatewayId } from "../../core/shared/ids.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { makeMerchant, newPayment, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const succeeded = { outcome: "paid", fee: units(3), net: units(97), gatewayId: null } as const

export const paymentCases = (it: StorageIt) => {
  it.effect("payment: round trip of every field, scoped lookups", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const at = yield* now
      const input = newPayment(merchant.id, {
        expiresAt: plusSeconds(at, 3600),
        amount: MAX_AMOUNT,
        description: "Order ✓ #1",
        customerName: "Zoë",
        customerEmail: "zoe@example.com",
        allowPaymentMethods: ["card", "sandbox"],
        gatewayIds: [GatewayId(3), GatewayId(7)],
        invoiceId: "inv-1"
      })
      const payment = yield* repo.insert(input, at)
      expect(payment).toEqual({
        ...input,
        status: "pending",
        failureReason: null,
        fee: null,
        net: null,
        refundedAmount: 0n,
        gatewayId: null,
        completedAt: null,
        createdAt: at,
        updatedAt: at
      })
      expect(yield* repo.findByTrxId(payment.trxId)).toEqual(Option.some(payment))
      expect(yield* repo.findScoped(merchant.id, "sandbox", payment.trxId)).toEqual(Option.some(payment))
      expect(yield* repo.findScoped(merchant.id, "production", payment.trxId)).toEqual(Option.none())
      expect(yield* repo.findScoped(other.id, "sandbox", payment.trxId)).toEqual(Option.none())
    }))

  it.effect("payment: a locked lookup inside a transaction sees the row and keeps the merchant + environment scope", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const { withTransaction } = yield* Transactor
      const merchant = yield* makeMerchant()
      const at = yield* now
      const payment = yield* repo.insert(newPayment(merchant.id, { expiresAt: plusSeconds(at, 60) }), at)
      const [locked, otherEnvironment] = yield* withTransaction(Effect.all([
        repo.findScopedForUpdate(merchant.id, "sandbox", payment.trxId),
        repo.findScopedForUpdate(merchant.id, "production", payment.trxId)
      ]))
      expect(locked).toEqual(Option.some(payment))
      expect(otherEnvironment).toEqual(Option.none())
    }))

  it.effect("payment: a reference is held while pending and unexpired or completed, and released by failure or expiry", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const later = plusSeconds(at, 60)
      const first = yield* repo.insert(newPayment(merchant.id, { refTrx: "order-1", expiresAt: later }), at)

      const held = yield* Effect.flip(repo.insert(newPayment(merchant.id, { refTrx: "order-1", expiresAt: later }), at))
      expect(held).toMatchObject({ _tag: "ReferenceHeld", heldBy: first.trxId })
      // Other environments and other merchants have their own references.
      yield* repo.insert(newPayment(merchant.id, { refTrx: "order-1", environment: "production", expiresAt: later }), at)
      yield* repo.insert(newPayment((yield* makeMerchant()).id, { refTrx: "order-1", expiresAt: later }), at)

      // Once the first session expires, a new one may take the reference.
      const second = yield* repo.insert(newPayment(merchant.id, { refTrx: "order-1", expiresAt: plusSeconds(later, 60) }), later)
      // Failure releases it at once.
      yield* repo.complete(second.trxId, { outcome: "declined", gatewayId: null }, later)
      const third = yield* repo.insert(newPayment(merchant.id, { refTrx: "order-1", expiresAt: plusSeconds(later, 60) }), later)
      // Completion holds it for good, even far past the session's expiry.
      yield* repo.complete(third.trxId, succeeded, later)
      const afterCompletion = yield* Effect.flip(
        repo.insert(newPayment(merchant.id, { refTrx: "order-1", expiresAt: plusSeconds(later, 10 ** 9) }), plusSeconds(later, 10 ** 8))
      )
      expect(afterCompletion).toMatchObject({ _tag: "ReferenceHeld", heldBy: third.trxId })
    }))

  it.effect("payment: 10 concurrent sessions for one reference, exactly one wins", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () =>
          Effect.either(repo.insert(newPayment(merchant.id, { refTrx: "race", expiresAt: plusSeconds(at, 600) }), at))),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Either.isRight).length).toBe(1)
      expect(results.filter(Either.isLeft).every((r) => r.left._tag === "ReferenceHeld")).toBe(true)
    }))

  it.effect("payment: a pending payment ends once; 10 concurrent outcomes, one applies", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const at = yield* now
      const payment = yield* repo.insert(newPayment((yield* makeMerchant()).id, { expiresAt: plusSeconds(at, 600) }), at)
      const outcomes = yield* Effect.all(
        Array.from({ length: 10 }, (_, i) =>
          repo.complete(payment.trxId, i % 2 === 0 ? { ...succeeded, gatewayId: GatewayId(i + 1) } : { outcome: "cancelled", gatewayId: null }, at)),
        { concurrency: "unbounded" }
      )
      const applied = outcomes.filter(Option.isSome)
      expect(applied.length).toBe(1)
      const stored = Option.getOrThrow(yield* repo.findByTrxId(payment.trxId))
      expect(stored).toEqual(applied[0]!.value)
      expect(stored.completedAt).toBe(at)
      if (stored.status === "success") expect([stored.fee, stored.net]).toEqual([units(3), units(97)])
      else expect([stored.failureReason, stored.fee]).toEqual(["cancelled", null])
    }))

  it.effect("payment: refunded total only grows on a successful payment and never past its amount", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const at = yield* now
      const pending = yield* repo.insert(newPayment((yield* makeMerchant()).id, { expiresAt: plusSeconds(at, 600) }), at)
      expect(yield* repo.addRefunded(pending.trxId, units(1), at)).toEqual(Option.none())
      yield* repo.complete(pending.trxId, succeeded, at)
      // 20 concurrent refunds of 7.00 on 100.00: 14 fit (98.00).
      const results = yield* Effect.all(
        Array.from({ length: 20 }, () => repo.addRefunded(pending.trxId, units(7), at)),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Option.isSome).length).toBe(14)
      expect(Option.map(yield* repo.findByTrxId(pending.trxId), (p) => p.refundedAmount)).toEqual(Option.some(units(98)))
      expect(Option.isSome(yield* repo.addRefunded(pending.trxId, units(2), at))).toBe(true)
      expect(yield* repo.addRefunded(pending.trxId, Amount(1n), at)).toEqual(Option.none())
    }))

  it.effect("payment: expired pending payments are listed oldest first, completed ones never", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      // Far in the future so rows of other cases (expiring within hours) sort before ours predictably.
      const base = plusSeconds(yield* now, 10 ** 8)
      const early = yield* repo.insert(newPayment(merchant.id, { expiresAt: plusSeconds(base, 1) }), base)
      const late = yield* repo.insert(newPayment(merchant.id, { expiresAt: plusSeconds(base, 2) }), base)
      const done = yield* repo.insert(newPayment(merchant.id, { expiresAt: plusSeconds(base, 1) }), base)
      yield* repo.complete(done.trxId, succeeded, base)
      const ours = (list: ReadonlyArray<{ trxId: string }>) =>
        list.map((p) => p.trxId).filter((id) => [early.trxId, late.trxId, done.trxId].includes(id))
      expect(ours(yield* repo.listExpiredPending(plusSeconds(base, 1), 1000))).toEqual([early.trxId])
      expect(ours(yield* repo.listExpiredPending(plusSeconds(base, 2), 1000))).toEqual([early.trxId, late.trxId])
    }))
}
