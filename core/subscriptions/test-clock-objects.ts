import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { ValidationFailed } from "../shared/validation.js"
import { type TestClock, TestClockBusy, TestClockLimitReached, TestClockRepository } from "./test-clock.js"

/** At most this many subscriptions live on one clock: an advance runs them all in one request. */
export const MAX_SUBSCRIPTIONS_PER_CLOCK = 100

/**
 * The clock a new subscription asks to live on (`test_clock`): the caller's own, in sandbox. A body
 * field naming nothing usable is the field's refusal (422), whether unknown or another merchant's,
 * so the answer tells nothing of other merchants' clocks.
 */
export const clockToLiveOn = (caller: MerchantScope, id: string) =>
  Effect.gen(function*() {
    if (caller.environment !== "sandbox") {
      return yield* ValidationFailed.field("testClock", "Test clocks are sandbox only: a production subscription lives on real time.")
    }
    const found = yield* (yield* TestClockRepository).findScoped(caller.merchant.id, caller.environment, id)
    if (Option.isNone(found)) return yield* ValidationFailed.field("testClock", "No test clock with this id in this environment.")
    if (found.value.status === "advancing") return yield* new TestClockBusy({ status: found.value.status })
    return found.value
  })

/** Refuses a subscription beyond the clock's limit. Call in the creating transaction. */
export const roomOnClock = (clock: TestClock) =>
  Effect.gen(function*() {
    const living = yield* (yield* TestClockRepository).subscriptionIds(clock.id)
    if (living.length >= MAX_SUBSCRIPTIONS_PER_CLOCK) {
      return yield* new TestClockLimitReached({ what: "subscriptions", limit: MAX_SUBSCRIPTIONS_PER_CLOCK })
    }
  })
