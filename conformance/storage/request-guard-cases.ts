import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { IdempotencyStore, type IdempotencyScope } from "../../core/idempotency/idempotency-store.js"
import { RateLimitCounters } from "../../core/rate-limit/rate-limit-counters.js"
import { now, plusSeconds, type Instant } from "../../core/shared/instant.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const window = (at: Instant) => ({ now: at, lockedUntil: plusSeconds(at, 30), expiresAt: plusSeconds(at, 86_400) })

export const requestGuardCases = (it: StorageIt) => {
  it.effect("idempotency: start, in flight, replay, mismatch, and scope per merchant + environment + key", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const merchant = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: merchant.id, environment: "sandbox", key: unique("key") }
      expect(yield* store.begin({ scope, fingerprint: "f1", ...window(at) })).toEqual({ _tag: "Started" })
      expect(yield* store.begin({ scope, fingerprint: "f1", ...window(at) })).toEqual({ _tag: "InFlight" })
      expect(yield* store.begin({ scope, fingerprint: "f2", ...window(at) })).toEqual({ _tag: "Mismatch" })
      yield* store.complete(scope, { status: 201, body: '{"data":{"amount":"1.00000000"}}' })
      expect(yield* store.begin({ scope, fingerprint: "f1", ...window(at) })).toEqual({
        _tag: "Replay",
        response: { status: 201, body: '{"data":{"amount":"1.00000000"}}' }
      })
      expect(yield* store.begin({ scope, fingerprint: "f2", ...window(at) })).toEqual({ _tag: "Mismatch" })
      // The same key is free in the other environment and for another merchant.
      expect(yield* store.begin({ scope: { ...scope, environment: "production" }, fingerprint: "f2", ...window(at) })).toEqual({ _tag: "Started" })
      const other = yield* makeMerchant()
      expect(yield* store.begin({ scope: { ...scope, merchantId: other.id }, fingerprint: "f2", ...window(at) })).toEqual({ _tag: "Started" })
    }))

  it.effect("idempotency: expired records and dead in-flight locks are taken over; abandon frees the key", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const merchant = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: merchant.id, environment: "sandbox", key: unique("key") }
      yield* store.begin({ scope, fingerprint: "f1", ...window(at) })
      // Its owner died: after the lock runs out the key is usable again, even with other parameters.
      const afterLock = plusSeconds(at, 31)
      expect(yield* store.begin({ scope, fingerprint: "f2", ...window(afterLock) })).toEqual({ _tag: "Started" })
      yield* store.complete(scope, { status: 200, body: "{}" })
      const afterExpiry = plusSeconds(afterLock, 86_400)
      expect(yield* store.begin({ scope, fingerprint: "f3", ...window(afterExpiry) })).toEqual({ _tag: "Started" })
      yield* store.abandon(scope)
      expect(yield* store.begin({ scope, fingerprint: "f4", ...window(afterExpiry) })).toEqual({ _tag: "Started" })
      expect(yield* store.purgeExpired(plusSeconds(afterExpiry, 10 * 86_400))).toBeGreaterThanOrEqual(1)
      expect(yield* store.begin({ scope, fingerprint: "f5", ...window(afterExpiry) })).toEqual({ _tag: "Started" })
    }))

  it.effect("idempotency: 10 concurrent identical requests, exactly one starts", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const merchant = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: merchant.id, environment: "production", key: unique("key") }
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () => store.begin({ scope, fingerprint: "same", ...window(at) })),
        { concurrency: "unbounded" }
      )
      expect(results.filter((r) => r._tag === "Started").length).toBe(1)
      expect(results.filter((r) => r._tag === "InFlight").length).toBe(9)
    }))

  it.effect("rate limit: 50 concurrent additions in one window each see a distinct total; windows are separate", () =>
    Effect.gen(function*() {
      const counters = yield* RateLimitCounters
      const key = unique("merchant:ip")
      const counts = yield* Effect.all(Array.from({ length: 50 }, () => counters.add(key, 1_800_000_000, 1)), {
        concurrency: "unbounded"
      })
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
      expect(yield* counters.add(key, 1_800_000_000, 25)).toBe(75)
      expect(yield* counters.add(key, 1_800_000_060, 3)).toBe(3)
      expect(yield* counters.purgeBefore(1_800_000_060)).toBeGreaterThanOrEqual(1)
      expect(yield* counters.add(key, 1_800_000_000, 1)).toBe(1)
    }))
}
