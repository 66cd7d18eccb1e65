import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { type Instant, MICROS_PER_SECOND } from "../shared/instant.js"
import { RequestLogRepository } from "./request-log.js"
import * as RequestLogPurger from "./request-log-purger.js"

describe("request log purger", () => {
  it.effect("removes entries older than the retention in batches until one comes back short, then waits for the interval", () => {
    const passes: Array<{ before: Instant; batch: number }> = []
    // 2,500 old entries: two full batches and a short one.
    let left = 2_500
    const repository = Layer.succeed(RequestLogRepository, RequestLogRepository.of({
      record: () => Effect.die("not used"),
      list: () => Effect.die("not used"),
      find: () => Effect.die("not used"),
      purgeBefore: (before, batch) =>
        Effect.sync(() => {
          passes.push({ before, batch })
          const removed = Math.min(left, batch)
          left -= removed
          return removed
        })
    }))
    return Effect.gen(function*() {
      yield* TestClock.adjust("1 millis")
      expect(passes.map((pass) => pass.batch)).toEqual([1_000, 1_000, 1_000])
      expect(passes[0]!.before).toBe(BigInt(-7 * 86_400) * MICROS_PER_SECOND)
      expect(left).toBe(0)
      yield* TestClock.adjust("59 minutes")
      expect(passes.length).toBe(3)
      yield* TestClock.adjust("1 minute")
      expect(passes.length).toBe(4)
      expect(passes[3]!.before - passes[0]!.before).toBe(3_600n * MICROS_PER_SECOND)
    }).pipe(Effect.provide(RequestLogPurger.layer({ retentionDays: 7, interval: "1 hour" }).pipe(Layer.provide(repository))), Effect.scoped)
  })
})
