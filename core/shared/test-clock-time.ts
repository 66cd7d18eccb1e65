import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import { fromMillis, type Instant } from "./instant.js"

/**
 * Time for a sandbox test clock's objects (issue 36). While a clock is advanced, the scheduler's
 * code runs on the clock's frozen time, exactly as it runs on real time; what is handed to the
 * outside world (webhook and mail deliveries) is still timed on the deployment's own clock, so a
 * renewal a year ahead in clock time is delivered now, not in a year.
 */
const deliveryClock = FiberRef.unsafeMake<Option.Option<Clock.Clock>>(Option.none())

/**
 * When a delivery queued now should first be tried: `scheduled` (business time) normally; the
 * deployment's current time while a test clock's work runs.
 */
export const deliveryTime = (scheduled: Instant): Effect.Effect<Instant> =>
  Effect.map(FiberRef.get(deliveryClock), Option.match({
    onNone: () => scheduled,
    onSome: (clock) => fromMillis(clock.unsafeCurrentTimeMillis())
  }))

/** Whether the running code is a test clock's (deliveries then go out on the deployment's time). */
export const onTestClock: Effect.Effect<boolean> = Effect.map(FiberRef.get(deliveryClock), Option.isSome)

/** A clock standing still at `at` (microseconds); sleeping still waits real time. */
export const frozenClock = (at: Instant, real: Clock.Clock): Clock.Clock => {
  const nanos = at * 1000n
  return {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => Number(at / 1000n),
    currentTimeMillis: Effect.sync(() => Number(at / 1000n)),
    unsafeCurrentTimeNanos: () => nanos,
    currentTimeNanos: Effect.sync(() => nanos),
    sleep: (duration: Duration.Duration) => real.sleep(duration)
  }
}

/**
 * Runs `effect` at a test clock's time `at`; its deliveries are timed on the deployment's clock
 * (the one running now, or the one already kept aside when this is nested).
 */
export const atTestClockTime = (at: Instant) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.all([FiberRef.get(deliveryClock), Effect.clock]), ([kept, running]) => {
    const deployment = Option.getOrElse(kept, () => running)
    return effect.pipe(Effect.withClock(frozenClock(at, deployment)), Effect.locally(deliveryClock, Option.some(deployment)))
  })
