import * as Effect from "effect/Effect"
import type { Instant } from "../shared/instant.js"
import type { NewSubscription, Subscription, SubscriptionChange } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"

/** The earliest of the times given, ignoring the absent ones. */
const earliest = (times: ReadonlyArray<Instant | null>): Instant | null =>
  times.reduce<Instant | null>((soonest, time) => (time !== null && (soonest === null || time < soonest) ? time : soonest), null)

/**
 * When the scheduler must next look at a subscription: the earliest of everything it waits for.
 * Each feature that schedules work for a subscription (a billing date, a charge retry, a dunning
 * step, a resume) names its time here, and only here, so the one queue covers them all. A
 * cancelled subscription waits for nothing.
 */
export const wakeAtOf = (subscription: Omit<NewSubscription, "wakeAt">): Instant | null =>
  subscription.status === "cancelled" ? null : earliest([
    subscription.nextBillingAt,
    subscription.trialNoticeAt ?? null,
    (subscription.pausedAt ?? null) !== null ? subscription.resumesAt ?? null : null,
    subscription.dunning?.nextAt ?? null,
    subscription.chargeAt
  ])

/**
 * Applies a change to a subscription the caller holds locked, as a compare-and-set on the status it
 * was read in, with its wake time recomputed from the result: every writer goes through here, so
 * the scheduler's queue never disagrees with the subscription. None when the status moved on.
 */
export const moveSubscription = (subscription: Subscription, change: SubscriptionChange, at: Instant) =>
  Effect.flatMap(SubscriptionRepository, (repo) =>
    repo.transition(subscription.id, [subscription.status], { ...change, wakeAt: wakeAtOf({ ...subscription, ...change }) }, at))
