import { Context, Effect, Layer } from "effect"
import type { StorageError } from "../shared/storage-error.js"
import { RateLimitCounters } from "./rate-limit-counters.js"

export interface RateDecision {
  readonly allowed: boolean
  readonly count: number
  /** Seconds until the current window closes: the client's Retry-After when refused. */
  readonly retryAfterSeconds: number
}

const WINDOW_SECONDS = 60

/** Fixed one-minute windows per key (merchant and client IP), counted in the shared store. */
export class RateLimiter extends Context.Tag("merchant-payments/RateLimiter")<RateLimiter, {
  /** `nowSeconds` is real time: limits follow the wall clock even when business time is manual. */
  readonly check: (key: string, limitPerMinute: number, nowSeconds: number) => Effect.Effect<RateDecision, StorageError>
}>() {}

export const decide = (count: number, limitPerMinute: number, nowSeconds: number): RateDecision => {
  const windowEnd = nowSeconds - (nowSeconds % WINDOW_SECONDS) + WINDOW_SECONDS
  return { allowed: count <= limitPerMinute, count, retryAfterSeconds: Math.max(1, windowEnd - nowSeconds) }
}

export const layer = Layer.effect(
  RateLimiter,
  Effect.gen(function*() {
    const counters = yield* RateLimitCounters
    let purgedBefore = 0
    return RateLimiter.of({
      check: (key, limitPerMinute, nowSeconds) =>
        Effect.gen(function*() {
          const windowStart = nowSeconds - (nowSeconds % WINDOW_SECONDS)
          // Old windows are dropped once per window per host, so the table stays small.
          if (windowStart > purgedBefore) {
            purgedBefore = windowStart
            yield* counters.purgeBefore(windowStart - WINDOW_SECONDS)
          }
          return decide(yield* counters.hit(key, windowStart), limitPerMinute, nowSeconds)
        })
    })
  })
)
