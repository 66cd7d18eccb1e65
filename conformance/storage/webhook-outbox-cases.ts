import { expect } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import type { MerchantId } from "../../core/shared/ids.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import type { AttemptReport, NewDelivery } from "../../core/webhooks/delivery.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const newDelivery = (merchantId: MerchantId, nextAttemptAt: Instant | null, overrides: Partial<NewDelivery> = {}): NewDelivery => ({
  id: unique("evt"),
  merchantId,
  environment: "sandbox",
  event: "payment.completed",
  url: "https://shop.example.test/webhooks",
  body: JSON.stringify({ event: "payment.completed", data: { amount: "10.00" } }),
  signingSecret: "webhook_secret",
  nextAttemptAt,
  objectId: unique("pay"),
  ...overrides
})

const report = (
  deliveryId: string,
  worker: string,
  at: Instant,
  outcome: Pick<AttemptReport, "statusCode" | "error" | "durationMs" | "next">
): AttemptReport => ({ deliveryId, worker, at, ...outcome })

/**
 * Claims at `at` with a generous limit and keeps only the given ids: other cases share the store,
 * so their due rows may be claimed too and must not count here.
 */
const claimOwn = (ids: ReadonlyArray<string>, worker: string, at: Instant, leaseSeconds = 60) =>
  Effect.flatMap(WebhookOutbox, (outbox) =>
    outbox.claimDue({ worker, now: at, leaseNow: at, leaseUntil: plusSeconds(at, leaseSeconds), limit: 10_000, lane: "fast", perTarget: 10_000, perMerchant: 10_000 })).pipe(
      Effect.map((claimed) => claimed.map((d) => d.id).filter((id) => ids.includes(id)))
    )

export const webhookOutboxCases = (it: StorageIt) => {
  it.effect("webhook outbox: round trip keeps the body's exact characters", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const delivery = newDelivery(merchant.id, at, {
        environment: "production",
        event: "refund.completed",
        // Non-ASCII, astral-plane characters, escapes and significant whitespace: signed bytes.
        body: `{"name":"Zoë Ünal","note":"naïve — ✓ 🚀 日本","quote":"\\"x\\"", "tab":"\t"}\n`,
        signingSecret: "client_secret"
      })
      const stored = yield* outbox.enqueue(delivery)
      const after = yield* now
      expect(stored).toEqual({
        ...delivery,
        sequence: 1,
        status: "pending",
        attempts: 0,
        lastError: null,
        lastStatusCode: null,
        createdAt: stored.createdAt,
        updatedAt: stored.createdAt
      })
      expect(stored.createdAt >= at && stored.createdAt <= after).toBe(true)
      expect(Buffer.from(stored.body, "utf8").equals(Buffer.from(delivery.body, "utf8"))).toBe(true)
      expect(yield* outbox.findById(delivery.id)).toEqual(Option.some(stored))
      expect(yield* outbox.findById(unique("evt_missing"))).toEqual(Option.none())
      expect(yield* outbox.attempts(delivery.id)).toEqual([])
    }))

  it.effect("webhook outbox: enqueueAll queues and numbers each object's deliveries as one enqueue after another would", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const [a, b] = [unique("pay"), unique("pay")]
      const first = yield* outbox.enqueue(newDelivery(merchant.id, at, { objectId: a }))
      const batch = [a, b, a, b, a].map((objectId, i) =>
        newDelivery(merchant.id, i === 1 ? null : at, { objectId, event: `payment.event_${i}`, url: `https://shop${i}.example.test/hook` }))
      const stored = yield* outbox.enqueueAll(batch)
      expect(first.sequence).toBe(1)
      expect(stored.map((delivery) => delivery.id)).toEqual(batch.map((delivery) => delivery.id))
      expect(stored.map((delivery) => delivery.sequence)).toEqual([2, 1, 3, 2, 4])
      for (const [i, delivery] of stored.entries()) {
        expect(delivery).toMatchObject({ ...batch[i], status: "pending", attempts: 0, lastError: null, lastStatusCode: null })
        expect(yield* outbox.findById(delivery.id)).toEqual(Option.some(delivery))
      }
      expect(yield* outbox.enqueueAll([])).toEqual([])
    }))

  it.effect("webhook outbox: claimDue leases only pending deliveries that are due", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const past = yield* outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, -10)))
      const exact = yield* outbox.enqueue(newDelivery(merchant.id, at))
      const future = yield* outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, 3_600)))
      const unscheduled = yield* outbox.enqueue(newDelivery(merchant.id, null))
      const ids = [past.id, exact.id, future.id, unscheduled.id]

      const claimed = yield* outbox.claimDue({ worker: "w1", now: at, leaseNow: at, leaseUntil: plusSeconds(at, 60), limit: 10_000, lane: "fast", perTarget: 10_000, perMerchant: 10_000 })
      expect(claimed.map((d) => d.id).filter((id) => ids.includes(id)).sort()).toEqual([past.id, exact.id].sort())
      for (const d of claimed) expect(d.status === "pending" && d.nextAttemptAt !== null && d.nextAttemptAt <= at).toBe(true)
      // Claiming leaves the delivery's visible state alone: it is still pending with no attempts.
      expect(Option.map(yield* outbox.findById(past.id), (d) => [d.status, d.attempts])).toEqual(Option.some(["pending", 0]))
      expect(yield* outbox.claimDue({ worker: "w1", now: at, leaseNow: at, leaseUntil: plusSeconds(at, 60), limit: 0, lane: "fast", perTarget: 10_000, perMerchant: 10_000 })).toEqual([])
    }))

  it.effect("webhook outbox: a leased delivery is not claimed again until its lease ends", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const delivery = yield* outbox.enqueue(newDelivery(merchant.id, at))
      const ids = [delivery.id]

      expect(yield* claimOwn(ids, "w1", at, 30)).toEqual(ids)
      expect(yield* claimOwn(ids, "w2", at)).toEqual([])
      expect(yield* claimOwn(ids, "w2", plusSeconds(at, 29))).toEqual([])
      // w1 crashed: once its lease ends another worker takes over, and w1 can no longer record.
      expect(yield* claimOwn(ids, "w2", plusSeconds(at, 31))).toEqual(ids)
      const late = report(delivery.id, "w1", plusSeconds(at, 32), { statusCode: 200, error: null, durationMs: 5, next: { status: "delivered" } })
      expect(yield* outbox.recordAttempt(late)).toBe(false)
      expect(yield* outbox.recordAttempt({ ...late, worker: "w2" })).toBe(true)
    }))

  it.effect("webhook outbox: a worker without the lease records nothing", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const delivery = yield* outbox.enqueue(newDelivery(merchant.id, at))
      const outcome = { statusCode: 200, error: null, durationMs: 12, next: { status: "delivered" } } as const

      // Never claimed: nobody holds it.
      expect(yield* outbox.recordAttempt(report(delivery.id, "w1", at, outcome))).toBe(false)
      expect(yield* claimOwn([delivery.id], "w1", at)).toEqual([delivery.id])
      expect(yield* outbox.recordAttempt(report(delivery.id, "w2", at, outcome))).toBe(false)
      expect(yield* outbox.recordAttempt(report(unique("evt_missing"), "w1", at, outcome))).toBe(false)
      // Claiming stamps updated_at; everything the refused reports carried is absent.
      expect(yield* outbox.findById(delivery.id)).toEqual(Option.some({ ...delivery, updatedAt: at }))
      expect(yield* outbox.attempts(delivery.id)).toEqual([])
    }))

  it.effect("webhook outbox: attempts are recorded in order and release the lease", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const t0 = yield* now
      const delivery = yield* outbox.enqueue(newDelivery(merchant.id, t0))
      const ids = [delivery.id]
      const [t1, t2, t3] = [plusSeconds(t0, 10), plusSeconds(t0, 40), plusSeconds(t0, 100)]

      expect(yield* claimOwn(ids, "w1", t0)).toEqual(ids)
      const first = report(delivery.id, "w1", t0, {
        statusCode: 500,
        error: "HTTP 500",
        durationMs: 120,
        next: { status: "pending", nextAttemptAt: t1 }
      })
      expect(yield* outbox.recordAttempt(first)).toBe(true)
      // Recording released the lease: a second report by the same worker is refused.
      expect(yield* outbox.recordAttempt(first)).toBe(false)
      expect(yield* outbox.findById(delivery.id)).toEqual(
        Option.some({ ...delivery, attempts: 1, nextAttemptAt: t1, lastError: "HTTP 500", lastStatusCode: 500, updatedAt: t0 })
      )
      // Not due again before its next attempt time.
      expect(yield* claimOwn(ids, "w2", plusSeconds(t0, 9))).toEqual([])

      expect(yield* claimOwn(ids, "w2", t1)).toEqual(ids)
      expect(
        yield* outbox.recordAttempt(report(delivery.id, "w2", t1, {
          statusCode: null,
          error: "connect ETIMEDOUT",
          durationMs: 10_000,
          next: { status: "pending", nextAttemptAt: t2 }
        }))
      ).toBe(true)
      expect(yield* claimOwn(ids, "w1", t2)).toEqual(ids)
      expect(
        yield* outbox.recordAttempt(report(delivery.id, "w1", t2, {
          statusCode: 204,
          error: null,
          durationMs: 35,
          next: { status: "delivered" }
        }))
      ).toBe(true)

      expect(yield* outbox.findById(delivery.id)).toEqual(
        Option.some({ ...delivery, status: "delivered", attempts: 3, nextAttemptAt: null, lastError: null, lastStatusCode: 204, updatedAt: t2 })
      )
      expect(yield* outbox.attempts(delivery.id)).toEqual([
        { deliveryId: delivery.id, attempt: 1, at: t0, statusCode: 500, error: "HTTP 500", durationMs: 120 },
        { deliveryId: delivery.id, attempt: 2, at: t1, statusCode: null, error: "connect ETIMEDOUT", durationMs: 10_000 },
        { deliveryId: delivery.id, attempt: 3, at: t2, statusCode: 204, error: null, durationMs: 35 }
      ])
      // Delivered is final: never claimed again.
      expect(yield* claimOwn(ids, "w1", t3)).toEqual([])
    }))

  it.effect("webhook outbox: requeue makes a failed delivery pending again with the same id and body", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const t0 = yield* now
      const delivery = yield* outbox.enqueue(newDelivery(merchant.id, t0))
      expect(yield* claimOwn([delivery.id], "w1", t0)).toEqual([delivery.id])
      yield* outbox.recordAttempt(report(delivery.id, "w1", t0, { statusCode: 410, error: "HTTP 410", durationMs: 8, next: { status: "failed" } }))
      expect(Option.map(yield* outbox.findById(delivery.id), (d) => [d.status, d.nextAttemptAt])).toEqual(Option.some(["failed", null]))
      // Failed is final until requeued.
      expect(yield* claimOwn([delivery.id], "w1", plusSeconds(t0, 3_600))).toEqual([])

      const t1 = plusSeconds(t0, 5)
      const requeued = yield* outbox.requeue(delivery.id, t1, t1)
      expect(requeued).toEqual(
        Option.some({ ...delivery, status: "pending", attempts: 0, nextAttemptAt: t1, lastError: null, lastStatusCode: null, updatedAt: t1 })
      )
      expect(yield* outbox.findById(delivery.id)).toEqual(requeued)
      // The history of the earlier attempt stays.
      expect((yield* outbox.attempts(delivery.id)).map((a) => a.statusCode)).toEqual([410])
      expect(yield* claimOwn([delivery.id], "w2", t1)).toEqual([delivery.id])
      // While w2 holds a live lease its attempt may be sending: requeue must not take it away.
      expect(yield* outbox.requeue(delivery.id, t1, t1)).toEqual(Option.none())
      yield* outbox.recordAttempt(report(delivery.id, "w2", t1, { statusCode: 200, error: null, durationMs: 3, next: { status: "delivered" } }))
      // History numbering continues across the redelivery.
      expect((yield* outbox.attempts(delivery.id)).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 410], [2, 200]])
      expect(yield* outbox.requeue(unique("evt_missing"), t1, t1)).toEqual(Option.none())
    }))

  it.effect("webhook outbox: list filters by merchant and status, newest first", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const a = yield* outbox.enqueue(newDelivery(merchant.id, at))
      const b = yield* outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, 3_600)))
      const c = yield* outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, 3_600)))
      expect(yield* claimOwn([a.id], "w1", at)).toEqual([a.id])
      yield* outbox.recordAttempt(report(a.id, "w1", at, { statusCode: 500, error: "HTTP 500", durationMs: 1, next: { status: "failed" } }))
      const newestFirst = (items: ReadonlyArray<{ readonly id: string; readonly createdAt: bigint }>) =>
        [...items].sort((x, y) => (x.createdAt !== y.createdAt ? (x.createdAt > y.createdAt ? -1 : 1) : x.id > y.id ? -1 : 1))
          .map((d) => d.id)

      const mine = yield* outbox.list({ merchantId: merchant.id, limit: 10 })
      expect(mine.map((d) => d.id)).toEqual(newestFirst([a, b, c]))
      expect((yield* outbox.list({ merchantId: merchant.id, limit: 2 })).map((d) => d.id)).toEqual(newestFirst([a, b, c]).slice(0, 2))
      expect((yield* outbox.list({ merchantId: merchant.id, status: "failed", limit: 10 })).map((d) => d.id)).toEqual([a.id])
      expect((yield* outbox.list({ merchantId: merchant.id, status: "pending", limit: 10 })).map((d) => d.id)).toEqual(
        newestFirst([b, c])
      )
      expect(yield* outbox.list({ merchantId: merchant.id, status: "delivered", limit: 10 })).toEqual([])

      const failed = yield* outbox.list({ status: "failed", limit: 10_000 })
      expect(failed.every((d) => d.status === "failed")).toBe(true)
      expect(failed.map((d) => d.id)).toContain(a.id)
      const everything = yield* outbox.list({ limit: 3 })
      expect(everything.length).toBe(3)
      expect(everything.map((d) => d.id)).toEqual(newestFirst(everything))
    }))

  it.effect("webhook outbox: claims are fair: at most perTarget in flight per target, across workers, the rest go to other targets", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const host = unique("hung").toLowerCase().replace(/[^a-z0-9]/g, "")
      // Ten old deliveries to one target (another path, user info and case are the same target)...
      const hung = yield* Effect.forEach(Array.from({ length: 10 }, (_, i) => i), (i) =>
        outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, -100 + i), {
          url: i % 2 === 0 ? `https://${host}.example.test/ipn/${i}` : `HTTPS://user:pw@${host.toUpperCase()}.example.test/other`
        })))
      // ...then two newer ones to another.
      const other = yield* Effect.forEach([0, 1], (i) =>
        outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, -50 + i), { url: `https://${host}-other.example.test/ipn` })))
      const mine = new Set([...hung, ...other].map((d) => d.id))
      const claim = (worker: string, limit: number, leaseNow = at) =>
        Effect.map(
          outbox.claimDue({ worker, now: at, leaseNow, leaseUntil: plusSeconds(leaseNow, 60), limit, lane: "fast", perTarget: 3, perMerchant: 10_000 }),
          (claimed) => claimed.map((d) => d.id).filter((id) => mine.has(id))
        )
      const first = yield* claim("fair_w1", 10_000)
      // The three oldest of the first target, and both of the other, oldest due first.
      expect(first).toEqual([...hung.slice(0, 3), ...other].map((d) => d.id))
      // Another worker gets nothing of the saturated target while those leases live.
      expect(yield* claim("fair_w2", 10_000)).toEqual([])
      // One attempt recorded frees one place for the target.
      yield* outbox.recordAttempt(report(hung[0]!.id, "fair_w1", at, { statusCode: 200, error: null, durationMs: 1, next: { status: "delivered" } }))
      expect(yield* claim("fair_w2", 10_000)).toEqual([hung[3]!.id])
      // Leases judged on their own clock: once they lapse, the target's places are free again.
      expect(yield* claim("fair_w3", 10_000, plusSeconds(at, 61))).toEqual([...hung.slice(1, 4), ...other].map((d) => d.id))
    }))

  it.effect("webhook outbox: a merchant holds at most perMerchant of a worker's leases in a lane; slow targets are claimed in the slow lane only", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const [a, b] = [yield* makeMerchant(), yield* makeMerchant()]
      const at = yield* now
      const host = unique("lanes").toLowerCase().replace(/[^a-z0-9]/g, "")
      // Merchant A's six oldest events, each to a target of its own, then two of B's.
      const ofA = yield* Effect.forEach(Array.from({ length: 6 }, (_, i) => i), (i) =>
        outbox.enqueue(newDelivery(a.id, plusSeconds(at, -100 + i), { url: `https://${host}-a${i}.example.test/ipn` })))
      const ofB = yield* Effect.forEach([0, 1], (i) =>
        outbox.enqueue(newDelivery(b.id, plusSeconds(at, -50 + i), { url: `https://${host}-b${i}.example.test/ipn` })))
      const mine = new Set([...ofA, ...ofB].map((d) => d.id))
      const claim = (worker: string, lane: "fast" | "slow", leaseNow = at) =>
        Effect.map(
          outbox.claimDue({ worker, now: at, leaseNow, leaseUntil: plusSeconds(leaseNow, 60), limit: 10_000, lane, perTarget: 10, perMerchant: 2 }),
          (claimed) => claimed.map((d) => d.id).filter((id) => mine.has(id))
        )
      // A's two oldest and B's two: A's other four wait though they are older than B's.
      expect(yield* claim("lanes_w1", "fast")).toEqual([ofA[0]!, ofA[1]!, ...ofB].map((d) => d.id))
      expect(yield* claim("lanes_w1", "fast")).toEqual([])
      // The share is of one worker's slots: another host sends A's next two.
      expect(yield* claim("lanes_w2", "fast")).toEqual([ofA[2]!.id, ofA[3]!.id])
      // A's first target answered slowly: it moves to the slow lane, for its pending events too.
      const slowTarget = ofA[4]!
      yield* outbox.recordAttempt(report(ofA[0]!.id, "lanes_w1", at, { statusCode: null, error: "timeout", durationMs: 10_000, next: { status: "pending", nextAttemptAt: at } }))
      expect(yield* outbox.noteTargetOutcome({ deliveryId: slowTarget.id, at, succeeded: false, slow: true, pauseAfterSeconds: undefined })).toBe(false)
      // w1 has a place of A's free again, taken by A's oldest due event of the fast lane, not the slow one.
      expect(yield* claim("lanes_w1", "fast")).toEqual([ofA[5]!.id])
      expect(yield* claim("lanes_w1", "fast")).toEqual([])
      // The slow lane counts its own leases: A holds two fast on w1 and still gets a slow one.
      expect(yield* claim("lanes_w1", "slow")).toEqual([slowTarget.id])
      // An attempt that was quick moves the target back; the lanes' leases lapse, and all is fast again.
      expect(yield* outbox.noteTargetOutcome({ deliveryId: slowTarget.id, at, succeeded: true, slow: false, pauseAfterSeconds: undefined })).toBe(false)
      const later = plusSeconds(at, 61)
      expect(yield* claim("lanes_w3", "slow", later)).toEqual([])
      expect(yield* claim("lanes_w3", "fast", later)).toEqual([ofA[1]!, ofA[2]!, ...ofB].map((d) => d.id))
    }))

  it.effect("webhook outbox: a batch of attempts is recorded as each would be alone, a report whose lease is gone refused, answered in order", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const t0 = yield* now
      const t1 = plusSeconds(t0, 60)
      const [done, retry, lost, given] = yield* Effect.forEach([0, 1, 2, 3], () => outbox.enqueue(newDelivery(merchant.id, t0)))
      const ids = [done!, retry!, lost!, given!].map((d) => d.id)
      expect([...(yield* claimOwn(ids, "batch_w1", t0))].sort()).toEqual([...ids].sort())
      // One has an attempt already; another's lease went to another worker (a requeue, a lapse).
      expect(yield* outbox.recordAttempt(report(given!.id, "batch_w1", t0, { statusCode: 500, error: "HTTP 500", durationMs: 2, next: { status: "pending", nextAttemptAt: t0 } }))).toBe(true)
      expect(yield* claimOwn([given!.id], "batch_w1", t0)).toEqual([given!.id])
      expect(yield* outbox.requeue(lost!.id, t0, plusSeconds(t0, 61))).toSatisfy(Option.isSome)

      const recorded = yield* outbox.recordAttempts([
        report(done!.id, "batch_w1", t0, { statusCode: 204, error: null, durationMs: 5, next: { status: "delivered" } }),
        report(lost!.id, "batch_w1", t0, { statusCode: 204, error: null, durationMs: 5, next: { status: "delivered" } }),
        report(retry!.id, "batch_w1", t0, { statusCode: null, error: "connect ECONNREFUSED", durationMs: 1, next: { status: "pending", nextAttemptAt: t1 } }),
        report(given!.id, "batch_w1", t0, { statusCode: 410, error: "HTTP 410", durationMs: 3, next: { status: "failed" } })
      ])
      expect(recorded).toEqual([true, false, true, true])
      expect(yield* outbox.findById(done!.id)).toEqual(Option.some({ ...done!, status: "delivered", attempts: 1, nextAttemptAt: null, lastStatusCode: 204, updatedAt: t0 }))
      expect(yield* outbox.findById(retry!.id)).toEqual(
        Option.some({ ...retry!, attempts: 1, nextAttemptAt: t1, lastError: "connect ECONNREFUSED", updatedAt: t0 })
      )
      expect(Option.map(yield* outbox.findById(lost!.id), (d) => [d.status, d.attempts])).toEqual(Option.some(["pending", 0]))
      expect(Option.map(yield* outbox.findById(given!.id), (d) => [d.status, d.attempts, d.lastStatusCode])).toEqual(Option.some(["failed", 2, 410]))
      // The history numbers continue from what was there; the refused report left none.
      expect((yield* outbox.attempts(given!.id)).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 500], [2, 410]])
      expect(yield* outbox.attempts(done!.id)).toEqual([{ deliveryId: done!.id, attempt: 1, at: t0, statusCode: 204, error: null, durationMs: 5 }])
      expect(yield* outbox.attempts(lost!.id)).toEqual([])
      // Every lease it recorded is released: the same reports again are all refused.
      expect(yield* outbox.recordAttempts([
        report(done!.id, "batch_w1", t0, { statusCode: 204, error: null, durationMs: 5, next: { status: "delivered" } }),
        report(retry!.id, "batch_w1", t0, { statusCode: 204, error: null, durationMs: 5, next: { status: "delivered" } })
      ])).toEqual([false, false])
      expect(yield* outbox.recordAttempts([])).toEqual([])
    }))

  it.effect("webhook outbox: target outcomes noted in a batch follow their order: the last one for a target stands", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const host = unique("notes").toLowerCase().replace(/[^a-z0-9]/g, "")
      const [failing, recovering, slowed] = yield* Effect.forEach(["f", "r", "s"], (name) =>
        outbox.enqueue(newDelivery(merchant.id, at, { url: `https://${host}-${name}.example.test/ipn` })))
      const [secondOfRecovering] = yield* Effect.forEach([0], () => outbox.enqueue(newDelivery(merchant.id, at, { url: recovering!.url })))
      const outcome = (deliveryId: string, succeeded: boolean, slow = false) => ({ deliveryId, at, succeeded, slow, pauseAfterSeconds: 0 })
      const failingNow = () =>
        Effect.map(outbox.failingTargets({ merchantId: merchant.id }), (targets) => targets.map((t) => [t.target, t.pausedAt !== null]))
      // A failure pauses (no grace here); a later quick success to the same target in the batch clears it.
      expect(yield* outbox.noteTargetOutcomes([
        outcome(failing!.id, false),
        outcome(recovering!.id, false),
        outcome(secondOfRecovering!.id, true),
        outcome(slowed!.id, true, true)
      ])).toEqual([true, true, false, false])
      expect(yield* failingNow()).toEqual([[`https://${host}-f.example.test`, true]])
      // The slow success moved its target to the slow lane: a fast claim leaves it, a slow claim takes it.
      const claim = (lane: "fast" | "slow") =>
        Effect.map(
          outbox.claimDue({ worker: "notes_w1", now: at, leaseNow: at, leaseUntil: plusSeconds(at, 60), limit: 10_000, lane, perTarget: 10, perMerchant: 10_000 }),
          (claimed) => claimed.map((d) => d.id).filter((id) => id === slowed!.id)
        )
      expect(yield* claim("fast")).toEqual([])
      expect(yield* claim("slow")).toEqual([slowed!.id])
      // Quick successes alone clear what was noted of their targets, in one go.
      expect(yield* outbox.noteTargetOutcomes([outcome(failing!.id, true), outcome(slowed!.id, true)])).toEqual([false, false])
      expect(yield* failingNow()).toEqual([])
      expect(yield* outbox.noteTargetOutcomes([])).toEqual([])
    }))

  it.effect("webhook outbox: a target paused for one merchant leaves its place to another merchant's events to it, however many older ones wait", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const [a, b] = [yield* makeMerchant(), yield* makeMerchant()]
      const at = yield* now
      const url = `https://${unique("shared").toLowerCase().replace(/[^a-z0-9]/g, "")}.example.test/ipn`
      // A's five events are the target's oldest; B's two come after them.
      const ofA = yield* Effect.forEach(Array.from({ length: 5 }, (_, i) => i), (i) => outbox.enqueue(newDelivery(a.id, plusSeconds(at, -100 + i), { url })))
      const ofB = yield* Effect.forEach([0, 1], (i) => outbox.enqueue(newDelivery(b.id, plusSeconds(at, -50 + i), { url })))
      const mine = new Set([...ofA, ...ofB].map((d) => d.id))
      const claim = (worker: string) =>
        Effect.map(
          outbox.claimDue({ worker, now: at, leaseNow: at, leaseUntil: plusSeconds(at, 60), limit: 10_000, lane: "fast", perTarget: 2, perMerchant: 10_000 }),
          (claimed) => claimed.map((d) => d.id).filter((id) => mine.has(id))
        )
      // The target fails for A until it is paused for A only.
      expect(yield* outbox.noteTargetOutcome({ deliveryId: ofA[0]!.id, at, succeeded: false, slow: false, pauseAfterSeconds: 0 })).toBe(true)
      // The target's two places go to B's events, the oldest it may send, not to A's paused ones before them.
      expect(yield* claim("paused_w1")).toEqual(ofB.map((d) => d.id))
      expect(yield* claim("paused_w2")).toEqual([])
    }))

  it.effect("webhook outbox: concurrent workers never claim one delivery twice", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const at = yield* now
      const created = yield* Effect.forEach(
        Array.from({ length: 40 }, (_, i) => i),
        (i) => outbox.enqueue(newDelivery(merchant.id, plusSeconds(at, -(i % 7)))),
        { concurrency: 4 }
      )
      const ids = new Set(created.map((d) => d.id))

      // Each worker claims a few at a time until a claim comes back empty; the lease outlives the test.
      const work = (worker: string, limit: number) =>
        Effect.gen(function*() {
          const mine: Array<string> = []
          for (;;) {
            const claimAt = yield* now
            const batch = yield* outbox.claimDue({ worker, now: claimAt, leaseNow: claimAt, leaseUntil: plusSeconds(claimAt, 600), limit, lane: "fast", perTarget: 10_000, perMerchant: 10_000 })
            if (batch.length === 0) return { worker, ids: mine }
            for (const d of batch) if (ids.has(d.id)) mine.push(d.id)
          }
        })
      const workers = yield* Effect.all([work("race_w1", 2), work("race_w2", 3), work("race_w3", 1), work("race_w4", 4)], {
        concurrency: "unbounded"
      })

      const claims = workers.flatMap((w) => w.ids)
      expect(claims.length).toBe(40)
      expect(new Set(claims)).toEqual(ids)
      // The store agrees on who holds each lease: only that worker can record for it.
      for (const w of workers) {
        for (const id of w.ids) {
          const outcome = { statusCode: 200, error: null, durationMs: 1, next: { status: "delivered" } } as const
          const stranger = workers.find((other) => other.worker !== w.worker)!.worker
          expect(yield* outbox.recordAttempt(report(id, stranger, at, outcome))).toBe(false)
          expect(yield* outbox.recordAttempt(report(id, w.worker, at, outcome))).toBe(true)
        }
      }
    }))

  it.effect("webhook outbox: events are numbered per object and listed newest first by keyset, filtered, never another merchant's", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const payment = unique("pay")
      const subscription = unique("sub")
      const later = plusSeconds(yield* now, 3_600)
      const queued: Array<{ readonly id: string; readonly createdAt: bigint; readonly sequence: number | null }> = []
      for (let i = 0; i < 5; i++) {
        queued.push(yield* outbox.enqueue(newDelivery(merchant.id, later, { objectId: payment, event: i === 0 ? "payment.completed" : "payment.refunded" })))
        queued.push(yield* outbox.enqueue(newDelivery(merchant.id, later, { objectId: subscription, event: "subscription.renewed" })))
        // Apart by a millisecond, so the time range below has distinct ends (ties are ordered by id).
        yield* Effect.sleep("2 millis")
      }
      // The same object id elsewhere (another merchant, the other environment) is another object.
      const elsewhere = yield* outbox.enqueue(newDelivery(other.id, later, { objectId: payment }))
      const production = yield* outbox.enqueue(newDelivery(merchant.id, later, { objectId: payment, environment: "production" }))
      expect([elsewhere.sequence, production.sequence]).toEqual([1, 1])
      expect(queued.filter((_, i) => i % 2 === 0).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5])
      expect(queued.filter((_, i) => i % 2 === 1).map((e) => e.sequence)).toEqual([1, 2, 3, 4, 5])

      const newestFirst = [...queued].sort((x, y) => (x.createdAt !== y.createdAt ? (x.createdAt > y.createdAt ? -1 : 1) : x.id > y.id ? -1 : 1))
        .map((e) => e.id)
      const base = { merchantId: merchant.id, environment: "sandbox" as const }
      // Three pages of four: each continues after the last of the one before.
      const pages: Array<Array<string>> = []
      let before: { readonly createdAt: Instant; readonly id: string } | undefined
      for (let i = 0; i < 3; i++) {
        const page = yield* outbox.events({ ...base, limit: 4, ...(before !== undefined ? { before } : {}) })
        pages.push(page.map((e) => e.id))
        const last = page[page.length - 1]
        if (last !== undefined) before = { createdAt: last.createdAt, id: last.id }
        // A new event arriving between pages does not shift the next one.
        if (i === 0) yield* outbox.enqueue(newDelivery(merchant.id, later, { objectId: payment, event: "payment.refunded" }))
      }
      expect(pages.flat()).toEqual(newestFirst)
      expect(pages.map((p) => p.length)).toEqual([4, 4, 2])

      const ofPayment = yield* outbox.events({ ...base, objectId: payment, limit: 100 })
      expect(ofPayment.map((e) => e.sequence)).toEqual([6, 5, 4, 3, 2, 1])
      expect((yield* outbox.events({ ...base, type: "payment.completed", limit: 100 })).map((e) => e.id)).toEqual([queued[0]!.id])
      const middle = queued[4]!.createdAt
      const ranged = yield* outbox.events({ ...base, since: Instant(middle), until: Instant(queued[7]!.createdAt), limit: 100 })
      expect(ranged.every((e) => e.createdAt >= middle && e.createdAt < queued[7]!.createdAt)).toBe(true)
      expect(ranged.map((e) => e.id)).toContain(queued[4]!.id)
      expect(ranged.map((e) => e.id)).not.toContain(queued[7]!.id)
      expect((yield* outbox.events({ ...base, merchantId: other.id, limit: 100 })).map((e) => e.id)).toEqual([elsewhere.id])
    }))

  it.effect("webhook outbox: two transactions queueing events of one object at once draw different numbers, continuing on", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const { withTransaction } = yield* Transactor
      const merchant = yield* makeMerchant()
      const payment = unique("pay")
      const later = plusSeconds(yield* now, 3_600)
      const queue = () => outbox.enqueue(newDelivery(merchant.id, later, { objectId: payment, event: "payment.refunded" }))
      const firstQueued = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // The first transaction has queued its event and stays open while the second queues its own.
      const first = yield* Effect.fork(withTransaction(Effect.gen(function*() {
        const queued = yield* queue()
        yield* Deferred.succeed(firstQueued, undefined)
        yield* Deferred.await(release)
        return queued
      })))
      yield* Deferred.await(firstQueued)
      const second = yield* Effect.fork(withTransaction(queue()))
      // Long enough for the second to reach the store and read (or wait for) the object's number.
      yield* Effect.sleep("300 millis")
      yield* Deferred.succeed(release, undefined)
      const numbers = [(yield* Fiber.join(first)).sequence, (yield* Fiber.join(second)).sequence]
      expect(numbers.sort()).toEqual([1, 2])
      expect((yield* queue()).sequence).toBe(3)
    }))

  it.effect("webhook outbox: pendingCount counts every merchant's deliveries waiting for an attempt, and only those", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const before = yield* outbox.pendingCount
      const t0 = yield* now
      const first = yield* outbox.enqueue(newDelivery((yield* makeMerchant()).id, t0))
      const second = yield* outbox.enqueue(newDelivery((yield* makeMerchant()).id, t0))
      expect(yield* outbox.pendingCount).toBe(before + 2)
      // Leased and in flight, it still waits; delivered or given up, it no longer does.
      expect(yield* claimOwn([first.id, second.id], "w1", t0)).toHaveLength(2)
      expect(yield* outbox.pendingCount).toBe(before + 2)
      yield* outbox.recordAttempt(report(first.id, "w1", t0, { statusCode: 200, error: null, durationMs: 1, next: { status: "delivered" } }))
      expect(yield* outbox.pendingCount).toBe(before + 1)
      yield* outbox.recordAttempt(report(second.id, "w1", t0, { statusCode: 503, error: "HTTP 503", durationMs: 1, next: { status: "failed" } }))
      expect(yield* outbox.pendingCount).toBe(before)
    }))

  it.effect("webhook outbox: requeueFailed makes a range's failed events pending once, and only those", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const t0 = yield* now
      const events = []
      for (let i = 0; i < 4; i++) {
        events.push(yield* outbox.enqueue(newDelivery(merchant.id, t0)))
        yield* Effect.sleep("2 millis")
      }
      const [failedEarly, delivered, failedLate, pending] = events as [typeof events[0], typeof events[0], typeof events[0], typeof events[0]]
      expect((yield* claimOwn([failedEarly.id, delivered.id, failedLate.id], "w1", t0)).length).toBe(3)
      const fail = { statusCode: 503, error: "HTTP 503", durationMs: 1, next: { status: "failed" } } as const
      yield* outbox.recordAttempt(report(failedEarly.id, "w1", t0, fail))
      yield* outbox.recordAttempt(report(failedLate.id, "w1", t0, fail))
      yield* outbox.recordAttempt(report(delivered.id, "w1", t0, { statusCode: 200, error: null, durationMs: 1, next: { status: "delivered" } }))
      const other = yield* makeMerchant()
      const othersFailed = yield* outbox.enqueue(newDelivery(other.id, t0))
      expect(yield* claimOwn([othersFailed.id], "w1", t0)).toEqual([othersFailed.id])
      yield* outbox.recordAttempt(report(othersFailed.id, "w1", t0, fail))

      const t1 = plusSeconds(t0, 60)
      const range = { merchantId: merchant.id, environment: "sandbox" as const, now: t1 }
      // A range that ends before the late one takes the early one alone.
      expect(yield* outbox.requeueFailed({ ...range, since: failedEarly.createdAt, until: failedLate.createdAt })).toBe(1)
      expect(yield* outbox.requeueFailed({ ...range, since: failedEarly.createdAt, until: undefined })).toBe(1)
      // Asking again queues nothing twice.
      expect(yield* outbox.requeueFailed({ ...range, since: failedEarly.createdAt, until: undefined })).toBe(0)
      const states = yield* Effect.all(events.map((e) => outbox.findById(e.id)))
      expect(states.map((s) => Option.map(s, (d) => [d.status, d.attempts]))).toEqual([
        Option.some(["pending", 0]), Option.some(["delivered", 1]), Option.some(["pending", 0]), Option.some(["pending", 0])
      ])
      expect(Option.map(yield* outbox.findById(failedLate.id), (d) => d.nextAttemptAt)).toEqual(Option.some(t1))
      expect(Option.map(yield* outbox.findById(othersFailed.id), (d) => d.status)).toEqual(Option.some("failed"))
      expect(pending.status).toBe("pending")
    }))

  it.effect("webhook outbox: failedCount counts the merchant's events failed for good, in one environment", () =>
    Effect.gen(function*() {
      const outbox = yield* WebhookOutbox
      const merchant = yield* makeMerchant()
      const t0 = yield* now
      const fail = { statusCode: 500, error: "HTTP 500", durationMs: 1, next: { status: "failed" } } as const
      const sandbox = [yield* outbox.enqueue(newDelivery(merchant.id, t0)), yield* outbox.enqueue(newDelivery(merchant.id, t0))]
      const production = yield* outbox.enqueue(newDelivery(merchant.id, t0, { environment: "production" }))
      const retrying = yield* outbox.enqueue(newDelivery(merchant.id, t0))
      const ids = [...sandbox, production, retrying].map((delivery) => delivery.id)
      expect((yield* claimOwn(ids, "w1", t0)).length).toBe(4)
      for (const delivery of [...sandbox, production]) yield* outbox.recordAttempt(report(delivery.id, "w1", t0, fail))
      yield* outbox.recordAttempt(report(retrying.id, "w1", t0, { ...fail, next: { status: "pending", nextAttemptAt: plusSeconds(t0, 60) } }))

      expect(yield* outbox.failedCount(merchant.id, "sandbox")).toBe(2)
      expect(yield* outbox.failedCount(merchant.id, "production")).toBe(1)
      expect(yield* outbox.failedCount((yield* makeMerchant()).id, "sandbox")).toBe(0)
      yield* outbox.requeueFailed({ merchantId: merchant.id, environment: "sandbox", since: t0, until: undefined, now: t0 })
      expect(yield* outbox.failedCount(merchant.id, "sandbox")).toBe(0)
    }))
}
