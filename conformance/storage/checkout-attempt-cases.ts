import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CheckoutAttempts } from "../../core/payments/checkout-attempts.js"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { PaymentFlags } from "../../core/payments/payment-flags.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import { makeMerchant, newPayment, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

/** A pending payment and a gateway record of its currency: what an attempt and a flag point at. */
const paymentAndGateway = Effect.gen(function*() {
  const at = yield* now
  const merchant = yield* makeMerchant()
  const gateways = yield* GatewayRepository
  const gateway = yield* gateways.create({ plugin: "sandbox", name: "Cards", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {} })
  const other = yield* gateways.create({ plugin: "sandbox", name: "Cards 2", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {} })
  const payment = yield* (yield* PaymentRepository).insert(newPayment(merchant.id, { expiresAt: plusSeconds(at, 3600) }), at)
  return { at, gateway, other, payment }
})

// Due times near the epoch keep these rows apart from every other case's (and from real time).
const early = (seconds: number) => Instant(BigInt(seconds) * 1_000_000n)

export const checkoutAttemptCases = (it: StorageIt) => {
  it.effect("checkout attempt: begin once per gateway (a second begin keeps the first), reference, find and list", () =>
    Effect.gen(function*() {
      const attempts = yield* CheckoutAttempts
      const { at, gateway, other, payment } = yield* paymentAndGateway
      yield* attempts.begin(payment.trxId, gateway.id, at, null)
      yield* attempts.begin(payment.trxId, gateway.id, Instant(at + 5_000_000n), Instant(at + 60_000_000n))
      yield* attempts.setReference(payment.trxId, gateway.id, "cs_test_1")
      expect(yield* attempts.find(payment.trxId, gateway.id)).toEqual(Option.some({
        trxId: payment.trxId, gatewayId: gateway.id, gatewayReference: "cs_test_1", beganAt: at, nextSyncAt: Instant(at + 60_000_000n), syncCount: 0, declinedAt: null
      }))
      expect(yield* attempts.find(payment.trxId, other.id)).toEqual(Option.none())
      yield* attempts.begin(payment.trxId, other.id, Instant(at + 1_000_000n), null)
      expect((yield* attempts.listForPayment(payment.trxId)).map((attempt) => attempt.gatewayId)).toEqual([gateway.id, other.id])
    }))

  it.effect("checkout attempt: due syncs in order with their payment's state; one claim of a due sync wins", () =>
    Effect.gen(function*() {
      const attempts = yield* CheckoutAttempts
      const { gateway, payment } = yield* paymentAndGateway
      const second = yield* paymentAndGateway
      yield* attempts.begin(second.payment.trxId, second.gateway.id, second.at, early(20))
      yield* attempts.begin(payment.trxId, gateway.id, payment.createdAt, early(10))
      const due = (yield* attempts.listDueSyncs(early(30), 1_000)).filter((item) => [payment.trxId, second.payment.trxId].includes(item.attempt.trxId))
      expect(due.map((item) => [item.attempt.trxId, item.paymentPending, item.paymentExpiresAt])).toEqual([
        [payment.trxId, true, payment.expiresAt],
        [second.payment.trxId, true, second.payment.expiresAt]
      ])
      expect((yield* attempts.listDueSyncs(early(15), 1_000)).some((item) => item.attempt.trxId === second.payment.trxId)).toBe(false)

      const claims = yield* Effect.all(Array.from({ length: 6 }, () => attempts.claimSync(payment.trxId, gateway.id, early(10), early(70))), { concurrency: "unbounded" })
      expect(claims.filter(Boolean)).toHaveLength(1)
      expect(yield* attempts.find(payment.trxId, gateway.id)).toMatchObject(Option.some({ nextSyncAt: early(70), syncCount: 1 }))
      expect(yield* attempts.claimSync(payment.trxId, gateway.id, early(10), early(80))).toBe(false)

      yield* attempts.stopSyncs(payment.trxId)
      expect(yield* attempts.find(payment.trxId, gateway.id)).toMatchObject(Option.some({ nextSyncAt: null }))
      expect((yield* attempts.listDueSyncs(early(1_000), 1_000)).some((item) => item.attempt.trxId === payment.trxId)).toBe(false)
    }))

  it.effect("checkout attempt: a decline is kept (syncs stop) until the customer chooses that gateway again", () =>
    Effect.gen(function*() {
      const attempts = yield* CheckoutAttempts
      const { at, gateway, other, payment } = yield* paymentAndGateway
      yield* attempts.begin(payment.trxId, gateway.id, at, Instant(at + 60_000_000n))
      yield* attempts.begin(payment.trxId, other.id, at, Instant(at + 60_000_000n))
      yield* attempts.recordDecline(payment.trxId, gateway.id, Instant(at + 5_000_000n))
      expect(yield* attempts.find(payment.trxId, gateway.id)).toMatchObject(Option.some({ declinedAt: Instant(at + 5_000_000n), nextSyncAt: null }))
      expect(yield* attempts.find(payment.trxId, other.id)).toMatchObject(Option.some({ declinedAt: null, nextSyncAt: Instant(at + 60_000_000n) }))
      yield* attempts.begin(payment.trxId, gateway.id, Instant(at + 9_000_000n), Instant(at + 70_000_000n))
      expect(yield* attempts.find(payment.trxId, gateway.id)).toMatchObject(Option.some({ beganAt: at, declinedAt: null, nextSyncAt: Instant(at + 70_000_000n) }))
    }))

  it.effect("payment flag: one per payment, gateway and reason; listed by payment and newest first", () =>
    Effect.gen(function*() {
      const flags = yield* PaymentFlags
      const { at, gateway, other, payment } = yield* paymentAndGateway
      const flag = { trxId: payment.trxId, gatewayId: gateway.id, reason: "amount_mismatch" as const, detail: "reported 1.00", createdAt: at }
      yield* flags.raise(flag)
      yield* flags.raise({ ...flag, detail: "reported 2.00" })
      yield* flags.raise({ ...flag, gatewayId: other.id, reason: "currency_mismatch", detail: "reported EUR", createdAt: Instant(at + 1n) })
      expect(yield* flags.listForPayment(payment.trxId)).toEqual([
        flag,
        { ...flag, gatewayId: other.id, reason: "currency_mismatch", detail: "reported EUR", createdAt: Instant(at + 1n) }
      ])
      const recent = yield* flags.listRecent(1)
      expect(recent[0]).toMatchObject({ trxId: payment.trxId, reason: "currency_mismatch" })
    }))
}
