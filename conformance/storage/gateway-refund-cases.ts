import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { MAX_AMOUNT } from "../../core/money/amount.js"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { type GatewayRefund, GatewayRefunds, newGatewayRefund } from "../../core/refunds/gateway-refund.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import { makeMerchant, newPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

/** A refund of a payment taken by a gateway: what a gateway refund row points at. */
const refundOfGatewayPayment = Effect.gen(function*() {
  const at = yield* now
  const merchant = yield* makeMerchant()
  const gateway = yield* (yield* GatewayRepository).create({
    plugin: "sandbox",
    name: "Cards",
    currency: "USD",
    method: unique("card"),
    type: "automatic",
    active: true,
    config: {}
  })
  const payment = yield* (yield* PaymentRepository).insert(newPayment(merchant.id, { expiresAt: plusSeconds(at, 60) }), at)
  const refund = yield* (yield* RefundRepository).insert({
    refundTrxId: unique("SANDBOX_RF"),
    paymentTrxId: payment.trxId,
    merchantId: merchant.id,
    environment: "sandbox",
    amount: units(10),
    currency: "USD",
    reason: null,
    refRefund: null,
    totalRefunded: units(10),
    remainingRefund: units(90)
  })
  return { gateway, payment, refund }
})

/** Enqueued with a chosen due time; times near the epoch keep these rows apart from every other case's. */
const enqueuedAt = (dueAt: Instant | null) =>
  Effect.gen(function*() {
    const { gateway, refund } = yield* refundOfGatewayPayment
    const row: GatewayRefund = { ...newGatewayRefund(refund, gateway.id, yield* now), nextAttemptAt: dueAt }
    yield* (yield* GatewayRefunds).enqueue(row)
    return row
  })

export const gatewayRefundCases = (it: StorageIt) => {
  it.effect("gateway refund: round trip of every field (amount exact beyond 2^53), by refund and by payment", () =>
    Effect.gen(function*() {
      const store = yield* GatewayRefunds
      const { gateway, payment, refund } = yield* refundOfGatewayPayment
      const row: GatewayRefund = { ...newGatewayRefund(refund, gateway.id, yield* now), amount: MAX_AMOUNT }
      yield* store.enqueue(row)
      expect(row).toMatchObject({ status: "pending", attempts: 0, idempotencyKey: `mp-refund-${refund.refundTrxId}` })
      expect(yield* store.find(refund.refundTrxId)).toEqual(Option.some(row))
      expect(yield* store.listForPayment(payment.trxId)).toEqual([row])
      expect(yield* store.find(unique("SANDBOX_RF"))).toEqual(Option.none())
    }))

  it.effect("gateway refund: due rows earliest first, up to the limit; later and final rows are not due", () =>
    Effect.gen(function*() {
      const store = yield* GatewayRefunds
      const second = yield* enqueuedAt(Instant(2_000n))
      const first = yield* enqueuedAt(Instant(1_000n))
      yield* enqueuedAt(Instant(3_000n))
      yield* enqueuedAt(null)
      const leaseNow = yield* now
      const due = yield* store.listDue(Instant(2_500n), leaseNow, 10)
      expect(due.map((row) => row.refundTrxId)).toEqual([first.refundTrxId, second.refundTrxId])
      expect((yield* store.listDue(Instant(2_500n), leaseNow, 1)).map((row) => row.refundTrxId)).toEqual([first.refundTrxId])
      // A row under a live lease is not due to anyone else; once the lease lapses it is again.
      expect(yield* store.claim(first.refundTrxId, Instant(1_000n), leaseNow, plusSeconds(leaseNow, 60))).toBe(true)
      expect((yield* store.listDue(Instant(2_500n), leaseNow, 10)).map((row) => row.refundTrxId)).toEqual([second.refundTrxId])
      expect((yield* store.listDue(Instant(2_500n), plusSeconds(leaseNow, 61), 10)).map((row) => row.refundTrxId)).toEqual([first.refundTrxId, second.refundTrxId])
    }))

  it.effect("gateway refund: of concurrent claims on one due row exactly one wins, a live lease holds, and a stale claim loses", () =>
    Effect.gen(function*() {
      const store = yield* GatewayRefunds
      const dueAt = Instant(5_000n)
      const row = yield* enqueuedAt(dueAt)
      const leaseNow = yield* now
      const lease = plusSeconds(leaseNow, 300)
      const claims = yield* Effect.all(Array.from({ length: 8 }, () => store.claim(row.refundTrxId, dueAt, leaseNow, lease)), { concurrency: "unbounded" })
      expect(claims.filter((won) => won).length).toBe(1)
      // The due date is untouched (business time); the lease alone holds the row.
      expect(Option.getOrThrow(yield* store.find(row.refundTrxId)).nextAttemptAt).toBe(dueAt)
      expect(yield* store.claim(row.refundTrxId, dueAt, plusSeconds(leaseNow, 299), plusSeconds(lease, 60))).toBe(false)
      // The holder died: once its lease lapses another caller takes the row.
      expect(yield* store.claim(row.refundTrxId, dueAt, plusSeconds(leaseNow, 301), plusSeconds(lease, 600))).toBe(true)
      // Recorded: the lease ends and the row is due again only at its new time.
      const retryAt = plusSeconds(leaseNow, 60)
      yield* store.record(row.refundTrxId, { status: "pending", attempts: 1, nextAttemptAt: retryAt, gatewayReference: null, message: "timed out", at: leaseNow })
      expect(yield* store.claim(row.refundTrxId, dueAt, leaseNow, lease)).toBe(false)
      expect(yield* store.claim(row.refundTrxId, retryAt, leaseNow, lease)).toBe(true)
      expect(yield* store.claim(unique("SANDBOX_RF"), dueAt, leaseNow, lease)).toBe(false)
    }))

  it.effect("gateway refund: record keeps each call's outcome; a final row is never due again", () =>
    Effect.gen(function*() {
      const store = yield* GatewayRefunds
      const row = yield* enqueuedAt(Instant(7_000n))
      const at = yield* now
      const retryAt = plusSeconds(at, 60)
      yield* store.record(row.refundTrxId, { status: "pending", attempts: 1, nextAttemptAt: retryAt, gatewayReference: null, message: "timed out ✗", at })
      expect(yield* store.find(row.refundTrxId)).toEqual(Option.some({
        ...row,
        attempts: 1,
        nextAttemptAt: retryAt,
        message: "timed out ✗",
        updatedAt: at
      }))
      const later = plusSeconds(at, 61)
      yield* store.record(row.refundTrxId, { status: "succeeded", attempts: 2, nextAttemptAt: null, gatewayReference: "re_123", message: null, at: later })
      const done = Option.getOrThrow(yield* store.find(row.refundTrxId))
      expect(done).toMatchObject({ status: "succeeded", attempts: 2, nextAttemptAt: null, gatewayReference: "re_123", message: null, updatedAt: later })
      expect(done.createdAt).toBe(row.createdAt)
      const due = yield* store.listDue(plusSeconds(later, 86_400 * 365), plusSeconds(later, 86_400 * 365), 10_000)
      expect(due.some((candidate) => candidate.refundTrxId === row.refundTrxId)).toBe(false)
    }))
}
