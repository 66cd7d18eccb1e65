import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { Instant } from "./instant.js"

/**
 * Business time that starts at a given moment and moves only when told to: for demos and tests
 * that need a checkout to expire or a subscription to fall due now. Sleeping (timers, retries,
 * schedules) still waits real time, so the host keeps working while business time stands still.
 */
export interface ManualClock {
  readonly clock: Clock.Clock
  readonly now: Effect.Effect<Instant>
  readonly unsafeNow: () => Instant
  readonly advance: (seconds: number) => Effect.Effect<Instant>
}

export const makeManualClock = (startMillis: number): ManualClock => {
  const real = Clock.make()
  let nanos = BigInt(Math.trunc(startMillis)) * 1_000_000n
  const clock: Clock.Clock = {
    [Clock.ClockTypeId]: Clock.ClockTypeId,
    unsafeCurrentTimeMillis: () => Number(nanos / 1_000_000n),
    currentTimeMillis: Effect.sync(() => Number(nanos / 1_000_000n)),
    unsafeCurrentTimeNanos: () => nanos,
    currentTimeNanos: Effect.sync(() => nanos),
    sleep: (duration: Duration.Duration) => real.sleep(duration)
  }
  const now = Effect.sync(() => Instant(nanos / 1000n))
  return {
    clock,
    now,
    unsafeNow: () => Instant(nanos / 1000n),
    advance: (seconds) =>
      Effect.sync(() => {
        nanos += BigInt(Math.trunc(seconds)) * 1_000_000_000n
        return Instant(nanos / 1000n)
      })
  }
}

/** Present only when the host runs on a manual clock; the admin clock API answers 404 without it. */
export class ManualClockControl extends Context.Tag("merchant-payments/ManualClockControl")<ManualClockControl, ManualClock>() {}
