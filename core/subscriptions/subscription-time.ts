import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { StorageError } from "../shared/storage-error.js"
import { atTestClockTime } from "../shared/test-clock-time.js"
import type { Subscription } from "./subscription.js"
import { TestClockRepository } from "./test-clock.js"

/**
 * Runs a lifecycle step of `subscription` on the time it lives on: real time, or its sandbox test
 * clock's frozen time (issue 36). Every writer of a subscription outside the scheduler's own tick
 * (cancel, renew, an invoice payment's settlement, and each later helper) goes through here, so an
 * object on a clock never sees the deployment's time; its webhooks still go out on the deployment's.
 * A clock already deleted took its subscriptions with it, so a missing one falls back to real time.
 */
export const onSubscriptionTime = (subscription: Pick<Subscription, "testClockId">) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageError, R | TestClockRepository> =>
  subscription.testClockId === null
    ? effect
    : Effect.flatMap(
      Effect.flatMap(TestClockRepository, (clocks) => clocks.findById(subscription.testClockId!)),
      Option.match({ onNone: () => effect, onSome: (clock) => atTestClockTime(clock.frozenTime)(effect) })
    )
