import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { fromMillis, now, plusSeconds, secondsBetween } from "../shared/instant.js"
import { schedulerLag, schedulerTicks } from "../shared/metrics.js"
import { Transactor } from "../shared/transactor.js"
import { Ids } from "../signing/random-ids.js"
import { carryOutDue, type DueOutcome } from "./due-work.js"
import { planDue } from "./lifecycle.js"
import { chargeIfDue } from "./renewal-charges.js"
import { SchedulerLease } from "./scheduler-lease.js"
import { SubscriptionRepository } from "./subscription-repository.js"

/** What one tick did: how many due subscriptions it looked at, and how each moved. */
export interface TickReport {
  readonly processed: number
  readonly started: number
  readonly pastDue: number
  readonly cancelled: number
  readonly unchanged: number
  readonly failed: number
}

/** Another host (or another call) is running a tick now: runs never overlap (spec 4.10). */
export class SchedulerBusy extends Schema.TaggedError<SchedulerBusy>()("SchedulerBusy", {}) {}

export const DEFAULT_BATCH_SIZE = 100
/** Subscriptions of one tick processed at once (each still alone in its transaction and row lock). */
const TICK_CONCURRENCY = 8
const LEASE_NAME = "subscription-scheduler"
// Far longer than a batch takes; a host that dies mid-run frees the lease when it lapses.
const LEASE_SECONDS = 300

/** One due subscription, in its own transaction under its row lock, re-checked there. */
const processDue = (id: string) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const at = yield* now
      const locked = yield* (yield* SubscriptionRepository).findByIdForUpdate(id)
      if (Option.isNone(locked)) return "none" as DueOutcome
      return (yield* carryOutDue(locked.value, planDue(locked.value, at), at, true)).outcome
    })))

/**
 * One pass of spec 4.10 on business time: at most `batchSize` due subscriptions, earliest first, of
 * one time scope: real time (`testClockId` null, the minute loop) or a sandbox test clock's (its
 * advance, run at the clock's time). A subscription that fails is logged and counted; the others go on.
 * `concurrency`: how many at once (a test clock's advance takes them one by one, see advance-test-clock.ts).
 */
export const tick = (batchSize: number, testClockId: string | null = null, concurrency: number = TICK_CONCURRENCY) =>
  Effect.gen(function*() {
    const at = yield* now
    const due = yield* (yield* SubscriptionRepository).listDue(at, batchSize, testClockId)
    if (testClockId === null) {
      // Earliest first: the first is the one that has waited longest. A test clock's lag is its own business.
      const oldest = due[0]?.wakeAt ?? null
      yield* Metric.increment(schedulerTicks)
      yield* Metric.set(schedulerLag, oldest === null ? 0 : Math.max(0, secondsBetween(oldest, at)))
    }
    const counts = { processed: due.length, started: 0, pastDue: 0, cancelled: 0, unchanged: 0, failed: 0 }
    // A few at a time, each in its own transaction under its own row lock: round trips overlap on
    // PostgreSQL, and SQLite's group commit joins their commits.
    yield* Effect.forEach(due, (subscription) =>
      processDue(subscription.id).pipe(
        // Then its renewal charge, if one is due (just scheduled, or a retry): outside the due work's
        // transaction. Only a subscription with a saved method or a charge pending can have one.
        Effect.tap(() => subscription.savedMethodId !== null || subscription.chargeAt !== null ? chargeIfDue(subscription.id) : Effect.void),
        Effect.catchAllCause((cause) =>
          Effect.as(Effect.logError("subscription could not be processed", { subscription: subscription.id }, cause), "failed" as const)),
        Effect.map((outcome) => {
          if (outcome === "started") counts.started++
          else if (outcome === "past_due") counts.pastDue++
          else if (outcome === "cancelled") counts.cancelled++
          else if (outcome === "failed") counts.failed++
          else counts.unchanged++
        })
      ), { concurrency, discard: true })
    return counts satisfies TickReport
  })

/** This host's scheduler: its lease holder name, the real clock the lease is timed on, the batch size. */
export class SchedulerConfig extends Context.Tag("merchant-payments/SchedulerConfig")<SchedulerConfig, {
  readonly holder: string
  readonly realClock: Clock.Clock
  readonly batchSize: number
}>() {}

/**
 * One tick now, under the store's lease; SchedulerBusy while another host (or call) holds it. The
 * lease is taken and timed on real time whatever business time says, so hosts on different manual
 * clocks still never overlap; the tick itself sees business time.
 */
export const runOnce = Effect.gen(function*() {
  const { batchSize, holder, realClock } = yield* SchedulerConfig
  const lease = yield* SchedulerLease
  // Each call holds the lease under its own name: the store extends a lease for the holder that
  // has it, so one name per host would let two calls on one host (the loop and an admin run) overlap.
  const runHolder = `${holder}/${yield* (yield* Ids).uuid}`
  const realNow = fromMillis(realClock.unsafeCurrentTimeMillis())
  if (!(yield* lease.acquire(LEASE_NAME, runHolder, realNow, plusSeconds(realNow, LEASE_SECONDS)))) {
    return yield* new SchedulerBusy()
  }
  return yield* tick(batchSize).pipe(Effect.ensuring(Effect.ignore(lease.release(LEASE_NAME, runHolder))))
})

/** Built outside any manual clock, so `realClock` is the real one. */
export const configLayer = (options: { readonly batchSize?: number } = {}) =>
  Layer.effect(SchedulerConfig, Effect.gen(function*() {
    return {
      holder: yield* (yield* Ids).uuid,
      realClock: yield* Effect.clock,
      batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE
    }
  }))

/**
 * Ticks every `interval` (a minute, spec 4.10) in this host; a tick another host is running is
 * skipped, a failed one logged. Business time follows `clock` when given (CLOCK=manual).
 */
export const loopLayer = (options: { readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scopedDiscard(Effect.gen(function*() {
    const pass = runOnce.pipe(
      Effect.tap((report) => report.processed > 0 ? Effect.logInfo("subscription scheduler tick", report) : Effect.void),
      Effect.catchTag("SchedulerBusy", () => Effect.void),
      Effect.catchAllCause((cause) => Effect.logWarning("subscription scheduler tick failed; retrying next minute", cause))
    )
    const scheduled = Effect.repeat(pass, Schedule.spaced(options.interval ?? "1 minute"))
    yield* Effect.forkScoped(options.clock === undefined ? scheduled : Effect.withClock(scheduled, options.clock))
  }))
