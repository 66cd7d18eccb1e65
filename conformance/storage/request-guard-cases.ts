import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  IdempotencyStore,
  type IdempotencyScope,
  type KeyedRequest,
  type StoredResponse
} from "../../core/idempotency/idempotency-store.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { RateLimitCounters } from "../../core/rate-limit/rate-limit-counters.js"
import { now, plusSeconds, type Instant } from "../../core/shared/instant.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const keyed = (scope: IdempotencyScope, fingerprint: string, at: Instant): KeyedRequest =>
  ({ scope, fingerprint, now: at, expiresAt: plusSeconds(at, 86_400) })

const stored = (status: number, body: string) => (_: unknown): StoredResponse => ({ status, body })
const notKept = (_: unknown): StoredResponse | undefined => undefined

/** The effect a keyed request guards: a row that exists only if the effect committed. */
const createMerchantNamed = (name: string) => makeMerchant({ name })
const merchantExists = (id: MerchantId) => Effect.map(Effect.flatMap(MerchantRepository, (repo) => repo.findById(id)), Option.isSome)

export const requestGuardCases = (it: StorageIt) => {
  it.effect("idempotency: ran, replay, mismatch, and scope per merchant + environment + key", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const merchant = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: merchant.id, environment: "sandbox", key: unique("key") }
      const body = '{"data":{"amount":"1.00000000"}}'
      expect(yield* store.once(keyed(scope, "f1", at), Effect.succeed("first"), stored(201, body))).toEqual({ _tag: "Ran", value: "first" })
      expect(yield* store.once(keyed(scope, "f1", at), Effect.die("must not run"), stored(201, "x"))).toEqual({
        _tag: "Replay",
        response: { status: 201, body }
      })
      expect(yield* store.once(keyed(scope, "f2", at), Effect.die("must not run"), stored(201, "x"))).toEqual({ _tag: "Mismatch" })
      // A record stored under another fingerprint of the same request (before a key rotation) replays.
      expect(yield* store.once({ ...keyed(scope, "f1-new", at), alsoMatches: ["f0", "f1"] }, Effect.die("must not run"), stored(201, "x")))
        .toEqual({ _tag: "Replay", response: { status: 201, body } })
      expect((yield* store.once({ ...keyed(scope, "f2", at), alsoMatches: ["f3"] }, Effect.die("must not run"), stored(201, "x")))._tag)
        .toBe("Mismatch")
      // The same key is free in the other environment and for another merchant.
      const production = { ...scope, environment: "production" as const }
      expect((yield* store.once(keyed(production, "f2", at), Effect.succeed(1), stored(200, "{}")))._tag).toBe("Ran")
      const other = yield* makeMerchant()
      expect((yield* store.once(keyed({ ...scope, merchantId: other.id }, "f2", at), Effect.succeed(1), stored(200, "{}")))._tag).toBe("Ran")
    }))

  it.effect("idempotency: the response commits with the effect; an answer not kept, or a failure, undoes both", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const owner = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: owner.id, environment: "sandbox", key: unique("key") }

      // A 5xx-like answer is not kept: the merchant the effect created is gone and the key is free.
      const discarded = yield* store.once(keyed(scope, "f1", at), createMerchantNamed(unique("discarded")), notKept)
      if (discarded._tag !== "Ran") throw new Error(`expected Ran, got ${discarded._tag}`)
      expect(yield* merchantExists(discarded.value.id)).toBe(false)

      // A failing effect rolls back what it wrote before failing, and frees the key.
      const failed = yield* Effect.either(store.once(
        keyed(scope, "f1", at),
        Effect.flatMap(createMerchantNamed(unique("failed")), (m) => Effect.fail({ _tag: "Refused", id: m.id } as const)),
        stored(200, "{}")
      ))
      if (failed._tag !== "Left" || !("id" in failed.left)) throw new Error("expected the effect's own failure")
      expect(yield* merchantExists(failed.left.id)).toBe(false)

      // Then the retry runs; its effect and its answer are both there.
      const kept = yield* store.once(keyed(scope, "f1", at), createMerchantNamed(unique("kept")), stored(201, "{\"ok\":true}"))
      if (kept._tag !== "Ran") throw new Error(`expected Ran, got ${kept._tag}`)
      expect(yield* merchantExists(kept.value.id)).toBe(true)
      expect((yield* store.once(keyed(scope, "f1", at), Effect.die("must not run"), notKept))._tag).toBe("Replay")
    }))

  it.effect("idempotency: expired records are taken over; purge removes them", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const merchant = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: merchant.id, environment: "sandbox", key: unique("key") }
      yield* store.once(keyed(scope, "f1", at), Effect.void, stored(200, "{}"))
      const afterExpiry = plusSeconds(at, 86_401)
      expect((yield* store.once(keyed(scope, "f2", afterExpiry), Effect.succeed(2), stored(200, "{}")))._tag).toBe("Ran")
      expect((yield* store.once(keyed(scope, "f3", afterExpiry), Effect.die("must not run"), notKept))._tag).toBe("Mismatch")
      expect(yield* store.purgeExpired(plusSeconds(afterExpiry, 10 * 86_400))).toBeGreaterThanOrEqual(1)
      expect((yield* store.once(keyed(scope, "f3", afterExpiry), Effect.succeed(3), stored(200, "{}")))._tag).toBe("Ran")
    }))

  it.effect("idempotency: 10 concurrent identical requests run the effect once", () =>
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const merchant = yield* makeMerchant()
      const at = yield* now
      const scope: IdempotencyScope = { merchantId: merchant.id, environment: "production", key: unique("key") }
      let runs = 0
      const effect = Effect.zipRight(Effect.sleep("50 millis"), Effect.sync(() => ++runs))
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () => store.once(keyed(scope, "same", at), effect, stored(201, "{}"))),
        { concurrency: "unbounded" }
      )
      expect(runs).toBe(1)
      expect(results.filter((r) => r._tag === "Ran").length).toBe(1)
      expect(results.every((r) => r._tag === "Ran" || r._tag === "InFlight" || r._tag === "Replay")).toBe(true)
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

  it.effect("rate limit: addAll adds to many windows at once, more than one statement holds, totals in the order given", () =>
    Effect.gen(function*() {
      const counters = yield* RateLimitCounters
      const window = 2_000_000_000 // after any window another case purges
      const keys = Array.from({ length: 450 }, (_, i) => unique(`merchant-${i}:ip`))
      expect(yield* counters.add(keys[7]!, window, 5)).toBe(5)
      expect(yield* counters.addAll([])).toEqual([])
      // Reversed, so an order the store happens to keep cannot pass for the order asked.
      const additions = keys.map((key, i) => ({ key, windowStartSeconds: window, requests: i % 3 })).reverse()
      const totals = yield* counters.addAll(additions)
      expect(totals).toEqual(additions.map((a) => a.requests + (a.key === keys[7] ? 5 : 0)))
      // Adding nothing only asks: the totals come back unchanged, and another window is its own.
      expect(yield* counters.addAll([{ key: keys[7]!, windowStartSeconds: window, requests: 0 }, { key: keys[7]!, windowStartSeconds: window + 60, requests: 0 }]))
        .toEqual([5 + (7 % 3), 0])
      expect(yield* counters.add(keys[449]!, window, 1)).toBe(449 % 3 + 1)
    }))
}
