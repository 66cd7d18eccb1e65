import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import type { Instant } from "../shared/instant.js"
import { IdempotencyStore } from "./idempotency-store.js"
import * as RecordPurger from "./record-purger.js"

describe("idempotency record purger", () => {
  it.effect("purges expired records at start and then every interval, at the current time", () => {
    const purgedAt: Array<Instant> = []
    const store = Layer.succeed(IdempotencyStore, IdempotencyStore.of({
      once: () => Effect.die("not used"),
      purgeExpired: (at) => Effect.sync(() => purgedAt.push(at))
    }))
    return Effect.gen(function*() {
      yield* TestClock.adjust("1 millis")
      expect(purgedAt.length).toBe(1)
      yield* TestClock.adjust("59 minutes")
      expect(purgedAt.length).toBe(1)
      yield* TestClock.adjust("1 minute")
      expect(purgedAt.length).toBe(2)
      expect(purgedAt[1]! - purgedAt[0]!).toBe(3_600_000_000n)
    }).pipe(Effect.provide(RecordPurger.layer().pipe(Layer.provide(store))), Effect.scoped)
  })
})
