import { type Instant, plusSeconds } from "../shared/instant.js"

/** How an off-session charge of a saved method ended, as the gateway said. */
export type ChargeStatus = "paid" | "declined" | "hard_declined" | "authentication_required"

/**
 * What follows a declined renewal charge: another try at `at`, or none (the invoice falls back to
 * its hosted checkout and dunning begins).
 */
export type RetryPlan =
  | { readonly _tag: "RetryAt"; readonly at: Instant }
  | { readonly _tag: "FallBack"; readonly reason: "hard_decline" | "authentication_required" | "tries_exhausted" }

const HOUR_SECONDS = 3_600

/**
 * After the `triesMade`-th try of a renewal declined: a soft decline is tried again `retryHours[n-1]`
 * hours after the renewal's first try (`firstTryAt`), so the schedule never drifts with late ticks,
 * and never before `at`; after the last listed retry, or on a hard decline or a bank's demand for
 * authentication (the customer must act: no retry can succeed without them), it falls back. With the
 * default hours that is up to 8 tries within 2 weeks (the renewal's own and 7 retries), like Stripe.
 */
export const planRetry = (
  status: Exclude<ChargeStatus, "paid">,
  triesMade: number,
  firstTryAt: Instant,
  retryHours: ReadonlyArray<number>,
  at: Instant
): RetryPlan => {
  if (status === "hard_declined") return { _tag: "FallBack", reason: "hard_decline" }
  if (status === "authentication_required") return { _tag: "FallBack", reason: "authentication_required" }
  const hours = retryHours[triesMade - 1]
  if (hours === undefined) return { _tag: "FallBack", reason: "tries_exhausted" }
  const planned = plusSeconds(firstTryAt, hours * HOUR_SECONDS)
  return { _tag: "RetryAt", at: planned > at ? planned : at }
}
