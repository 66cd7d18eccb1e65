import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { type Instant, now } from "../shared/instant.js"
import { atTestClockTime } from "../shared/test-clock-time.js"
import { ValidationFailed } from "../shared/validation.js"
import { DEFAULT_BATCH_SIZE, tick } from "./scheduler.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { type TestClock, TestClockBusy, TestClockRepository } from "./test-clock.js"
import { CLOCK_HORIZON_SECONDS, getTestClock } from "./test-clocks.js"
import { plusSeconds } from "../shared/instant.js"

/** Ticks in a row that fail or move nothing before an advance gives up (`internal_failure`). */
const STALLED_TICKS = 3
/**
 * A clock's due subscriptions are carried out one by one, in the queue's order (wake time, id): the
 * same run gives the same event order, and an advance sent with an Idempotency-Key (inside the
 * transaction its answer is stored in) never runs two statements at once on that one connection.
 */
const ONE_AT_A_TIME = 1
/** A hard stop whatever the ticks say: far above any run a clock's limits allow. */
const MAX_TICKS = 100_000

/**
 * The clock's due work up to `target`, in time order, by the scheduler's own tick (the same code as
 * real time) run at each wake time in turn: each tick sees the clock's time as now, so an invoice,
 * a period end or a cancellation happens at the instant it is due, and what it schedules next is
 * picked up by a later step. `ready` when nothing is due by `target` any more; `internal_failure`
 * (stopped, not looping) when ticks keep failing or stop moving anything.
 */
const runDue = (clock: TestClock, target: Instant) =>
  Effect.gen(function*() {
    const clocks = yield* TestClockRepository
    const repo = yield* SubscriptionRepository
    let stalled = 0
    for (let ticks = 0; ticks < MAX_TICKS; ticks++) {
      const next = yield* repo.nextWake(clock.id)
      if (Option.isNone(next) || next.value > target) return true
      const at = next.value < clock.frozenTime ? clock.frozenTime : next.value
      const report = yield* atTestClockTime(at)(tick(DEFAULT_BATCH_SIZE, clock.id, ONE_AT_A_TIME))
      const after = yield* repo.nextWake(clock.id)
      const moved = report.processed - report.failed - report.unchanged > 0 ||
        Option.isNone(after) || after.value !== next.value
      stalled = report.failed > 0 || !moved ? stalled + 1 : 0
      if (stalled >= STALLED_TICKS) return false
      // The clock reads the time its objects have reached: a payment settled meanwhile is at it.
      yield* clocks.update(clock.id, ["advancing"], { frozenTime: at }, yield* now)
    }
    return false
  })

/**
 * POST /api/v1/test-clocks/{id}/advance: moves the clock forward to `frozenTime` (later than now on
 * it, within the horizon), running everything due on the way. One advance at a time: the clock is
 * claimed `ready` -> `advancing` by compare-and-set, so a concurrent one is refused (409).
 */
export const advanceTestClock = (caller: MerchantScope, id: string, frozenTime: Instant) =>
  Effect.gen(function*() {
    const clock = yield* getTestClock(caller, id)
    if (frozenTime <= clock.frozenTime) {
      return yield* ValidationFailed.field("frozenTime", "The frozen time must be later than the clock's current frozen time.")
    }
    if (frozenTime > plusSeconds(clock.frozenTime, CLOCK_HORIZON_SECONDS)) {
      return yield* ValidationFailed.field("frozenTime", "A clock moves at most five years in one advance.")
    }
    const clocks = yield* TestClockRepository
    const claimed = yield* clocks.update(clock.id, ["ready", "internal_failure"], { status: "advancing" }, yield* now)
    if (Option.isNone(claimed)) return yield* new TestClockBusy({ status: "advancing" })
    // Once claimed, the run ends with the clock released whatever happens to the request: a client
    // that hangs up must not leave it `advancing`. The run is bounded by the clock's limits.
    return yield* Effect.uninterruptible(Effect.gen(function*() {
      const finished = yield* runDue(claimed.value, frozenTime).pipe(
        Effect.catchAllCause((cause) => Effect.as(Effect.logError("test clock advance failed", { testClock: clock.id }, cause), false))
      )
      const done = yield* clocks.update(
        clock.id,
        ["advancing"],
        finished ? { status: "ready", frozenTime } : { status: "internal_failure" },
        yield* now
      )
      return Option.getOrElse(done, () => claimed.value)
    }))
  })
