import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { StorageError } from "../shared/storage-error.js"
import { RateLimiter } from "./rate-limiter.js"

/**
 * Failed authentications (wrong admin token, unknown or wrong keys, bad or missing signature or
 * timestamp) counted per client address and per merchant key, in one-minute windows shared by every
 * host of the store. It acts only where a request has already failed: a correctly authenticated
 * request is never counted nor refused here (the contract's own rate limit still applies to it), so
 * one misconfigured shop behind a proxy or on a plugin server shared with others cannot lock out
 * the other merchants or the operator. Past a threshold a failure is answered 429 instead of 401,
 * still naming what was wrong, after a hold that slows a guesser waiting on its answers.
 *
 * The address threshold sits well above what an honest client's mistakes produce: the HTTP
 * conformance suite, which sends every missing, malformed and wrong credential, timestamp and
 * signature form from one address, fails 156 times in about 20 s.
 */
export const AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = 240
export const AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE = 60
/**
 * How long a failure past a threshold waits before it is answered: a guesser that waits for each
 * answer gets about one guess a second per connection after the threshold, near the old refusal of
 * everything, without holding back any request that authenticates.
 */
export const THROTTLED_FAILURE_HOLD = Duration.seconds(1)

export class AuthThrottle extends Context.Tag("merchant-payments/AuthThrottle")<AuthThrottle, {
  /**
   * Counts one failed authentication. When it went past a threshold: the seconds until the window
   * ends, after the hold (the failure is then answered 429 rather than 401); undefined otherwise.
   */
  readonly failed: (address: string, merchantKey: string | undefined, nowSeconds: number) => Effect.Effect<number | undefined, StorageError>
}>() {}

/** Kept bounded: an entry lives until its window ends, and expired ones go when the map grows. */
const MAX_WARNED = 10_000

export const layer = Layer.effect(
  AuthThrottle,
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    // One warning per key and window: the first failure past the threshold.
    const warned = new Map<string, number>()

    const forget = (nowSeconds: number) => {
      if (warned.size < MAX_WARNED) return
      for (const [key, until] of warned) if (until <= nowSeconds) warned.delete(key)
    }

    const over = (kind: "address" | "merchant_key", value: string, limit: number, nowSeconds: number) =>
      Effect.gen(function*() {
        const decision = yield* limiter.check(`auth-failures|${kind}|${value}`, limit, nowSeconds)
        if (decision.allowed) return undefined
        if ((warned.get(`${kind}|${value}`) ?? 0) <= nowSeconds) {
          forget(nowSeconds)
          warned.set(`${kind}|${value}`, nowSeconds + decision.retryAfterSeconds)
          yield* Effect.logWarning(`failed authentications throttled: more than ${limit} a minute from one ${kind === "address" ? "address" : "merchant key"}`)
            .pipe(Effect.annotateLogs({ [kind]: value.slice(0, 64), retry_after: decision.retryAfterSeconds }))
        }
        return decision.retryAfterSeconds
      })

    return AuthThrottle.of({
      failed: (address, merchantKey, nowSeconds) =>
        Effect.gen(function*() {
          const byAddress = yield* over("address", address, AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, nowSeconds)
          const byKey = merchantKey === undefined || merchantKey === ""
            ? undefined
            : yield* over("merchant_key", merchantKey, AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE, nowSeconds)
          const retryAfter = byAddress ?? byKey
          if (retryAfter !== undefined) yield* Effect.sleep(THROTTLED_FAILURE_HOLD)
          return retryAfter
        })
    })
  })
)
