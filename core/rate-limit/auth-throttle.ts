import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { StorageError } from "../shared/storage-error.js"
import { RateLimiter } from "./rate-limiter.js"

/**
 * Failed authentications (wrong admin token, unknown or wrong keys, bad or missing signature or
 * timestamp) counted per client address and per merchant key, in one-minute windows shared by every
 * host of the store. Past the address threshold every request from that address is refused (429)
 * until the window ends, before its credentials are even looked at; past the merchant-key threshold
 * that key's failing requests are refused, while its correctly signed ones still go through, so a
 * stranger who knows a merchant key cannot lock the merchant out.
 *
 * The address threshold sits well above what an honest client's mistakes produce: the HTTP
 * conformance suite, which sends every missing, malformed and wrong credential, timestamp and
 * signature form from one address, fails 156 times in about 20 s.
 */
export const AUTH_FAILURES_PER_ADDRESS_PER_MINUTE = 240
export const AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE = 60

export class AuthThrottle extends Context.Tag("merchant-payments/AuthThrottle")<AuthThrottle, {
  /** Seconds until `address` may try again, when it is throttled; undefined otherwise. Counts nothing. */
  readonly addressRetryAfter: (address: string, nowSeconds: number) => number | undefined
  /**
   * Counts one failed authentication. The seconds to wait when it went past a threshold (the failure
   * is then answered 429 rather than 401); undefined otherwise.
   */
  readonly failed: (address: string, merchantKey: string | undefined, nowSeconds: number) => Effect.Effect<number | undefined, StorageError>
}>() {}

/** Kept bounded: an entry lives until its window ends, and expired ones go when the map grows. */
const MAX_BLOCKED = 10_000

export const layer = Layer.effect(
  AuthThrottle,
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const blockedUntil = new Map<string, number>()
    // One warning per key and window: the first failure past the threshold.
    const warned = new Map<string, number>()

    const forget = (map: Map<string, number>, nowSeconds: number) => {
      if (map.size < MAX_BLOCKED) return
      for (const [key, until] of map) if (until <= nowSeconds) map.delete(key)
    }

    const over = (kind: "address" | "merchant_key", value: string, limit: number, nowSeconds: number) =>
      Effect.gen(function*() {
        const decision = yield* limiter.check(`auth-failures|${kind}|${value}`, limit, nowSeconds)
        if (decision.allowed) return undefined
        const until = nowSeconds + decision.retryAfterSeconds
        if ((warned.get(`${kind}|${value}`) ?? 0) <= nowSeconds) {
          forget(warned, nowSeconds)
          warned.set(`${kind}|${value}`, until)
          yield* Effect.logWarning(`failed authentications throttled: more than ${limit} a minute from one ${kind === "address" ? "address" : "merchant key"}`)
            .pipe(Effect.annotateLogs({ [kind]: value.slice(0, 64), retry_after: decision.retryAfterSeconds }))
        }
        return decision.retryAfterSeconds
      })

    return AuthThrottle.of({
      addressRetryAfter: (address, nowSeconds) => {
        const until = blockedUntil.get(address)
        if (until === undefined) return undefined
        if (until > nowSeconds) return until - nowSeconds
        blockedUntil.delete(address)
        return undefined
      },
      failed: (address, merchantKey, nowSeconds) =>
        Effect.gen(function*() {
          const byAddress = yield* over("address", address, AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, nowSeconds)
          if (byAddress !== undefined) {
            forget(blockedUntil, nowSeconds)
            blockedUntil.set(address, nowSeconds + byAddress)
          }
          const byKey = merchantKey === undefined || merchantKey === ""
            ? undefined
            : yield* over("merchant_key", merchantKey, AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE, nowSeconds)
          return byAddress ?? byKey
        })
    })
  })
)
