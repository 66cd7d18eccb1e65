import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import type { StorageError } from "../shared/storage-error.js"
import { type Draft, exactFrom, LocalWindows } from "./local-windows.js"
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
  /**
   * The decision `check` would give one more request, without counting it: for limits on failures,
   * which must refuse before the attempt is made but count only the attempts that failed.
   */
  readonly peek: (key: string, limitPerMinute: number, nowSeconds: number) => Effect.Effect<RateDecision, StorageError>
}>() {}

export const decide = (count: number, limitPerMinute: number, nowSeconds: number): RateDecision => {
  const windowEnd = nowSeconds - (nowSeconds % WINDOW_SECONDS) + WINDOW_SECONDS
  return { allowed: count <= limitPerMinute, count, retryAfterSeconds: Math.max(1, windowEnd - nowSeconds) }
}

/**
 * Far from the limit, requests are counted in memory and written to the store in batches every
 * `flushInterval`, so an ordinary request costs no store write. The first request a host sees for
 * a key in a window, and every request near the limit, is counted in the store before it is
 * answered. Each flush also brings back every active window's total, so hosts sharing a store share
 * one limit, lagging each other by about one flush interval of traffic at most.
 */
export const layer = (options: { readonly flushInterval?: Duration.DurationInput } = {}) =>
  Layer.scoped(
    RateLimiter,
    Effect.gen(function*() {
      const counters = yield* RateLimitCounters
      const windows = new LocalWindows()
      let purgedBefore = 0
      // Core takes no time of its own: the latest real time a caller passed in drives housekeeping.
      let latestSeconds = 0

      const write = ({ view, requests }: Draft) =>
        counters.add(view.key, view.windowStart, requests).pipe(
          Effect.tap((total) => Effect.sync(() => LocalWindows.record(view, total))),
          // A failed write is put back, to be tried with the next flush rather than lost.
          Effect.tapError(() => Effect.sync(() => (view.pending += requests)))
        )

      const flush = Effect.gen(function*() {
        const currentWindow = latestSeconds - (latestSeconds % WINDOW_SECONDS)
        // Every active window in one call (one statement on SQL stores): the flush runs five times a
        // second even when idle, and on SQLite each statement is a durable commit whose fsync stalls
        // the event loop, so a statement per window made idle hosts with many merchants commit busily.
        const drafts = windows.drain(currentWindow)
        if (drafts.length > 0) {
          yield* counters.addAll(drafts.map(({ view, requests }) => ({ key: view.key, windowStartSeconds: view.windowStart, requests }))).pipe(
            Effect.tap((totals) => Effect.sync(() => drafts.forEach(({ view }, i) => LocalWindows.record(view, totals[i]!)))),
            // A failed flush is put back whole, to be tried with the next one rather than lost.
            Effect.tapError(() => Effect.sync(() => drafts.forEach(({ view, requests }) => (view.pending += requests))))
          )
        }
        windows.forgetBefore(currentWindow)
        if (currentWindow > purgedBefore) {
          purgedBefore = currentWindow
          yield* counters.purgeBefore(currentWindow - WINDOW_SECONDS)
        }
      }).pipe(Effect.catchAll((error) => Effect.logWarning("rate-limit counters not written; retrying", error.message)))

      yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced(options.flushInterval ?? "200 millis")))
      yield* Effect.addFinalizer(() => flush)

      return RateLimiter.of({
        check: (key, limitPerMinute, nowSeconds) => {
          latestSeconds = Math.max(latestSeconds, nowSeconds)
          const view = windows.view(key, nowSeconds - (nowSeconds % WINDOW_SECONDS))
          const estimate = view.shared + view.pending + 1
          if (view.known && estimate < exactFrom(limitPerMinute)) {
            view.pending += 1
            return Effect.succeed(decide(estimate, limitPerMinute, nowSeconds))
          }
          // First sight of this window, or near the limit: this request and anything pending go to the store now.
          const requests = view.pending + 1
          view.pending = 0
          return Effect.map(write({ view, requests }), (total) => decide(total, limitPerMinute, nowSeconds))
        },
        peek: (key, limitPerMinute, nowSeconds) => {
          latestSeconds = Math.max(latestSeconds, nowSeconds)
          const view = windows.view(key, nowSeconds - (nowSeconds % WINDOW_SECONDS))
          const estimate = view.shared + view.pending + 1
          if (view.known && estimate < exactFrom(limitPerMinute)) return Effect.succeed(decide(estimate, limitPerMinute, nowSeconds))
          // Near the limit the store is asked: writing what is pending (perhaps nothing) brings back its total.
          const requests = view.pending
          view.pending = 0
          return Effect.map(write({ view, requests }), (total) => decide(total + 1, limitPerMinute, nowSeconds))
        }
      })
    })
  )
