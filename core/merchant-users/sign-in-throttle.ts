import * as Effect from "effect/Effect"
import { RateLimiter } from "../rate-limit/rate-limiter.js"
import { MICROS_PER_SECOND } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { sha256Hex } from "../signing/hmac.js"

/**
 * Failed dashboard sign-ins, counted in the shared one-minute rate-limit windows (every host of the
 * store sees the same counts) per account and per client address.
 *
 * Per account, 5 a minute: a person who mistyped their password a few times is not stopped, while
 * a guesser gets 7,200 tries a day against a password of at least 12 characters; and someone who
 * knows an email can lock its owner out for the rest of a minute at most.
 * Per address, 30 a minute: enough for an office behind one address to mistype, while one machine
 * trying many accounts (credential stuffing) is held to a trickle.
 */
export const SIGN_IN_FAILURES_PER_ACCOUNT_PER_MINUTE = 5
export const SIGN_IN_FAILURES_PER_ADDRESS_PER_MINUTE = 30

// The account is keyed by a digest of the email as typed (normalized), existing or not: the same
// throttle for every email keeps it from telling which exist, and the counters table holds no address.
const accountKey = (email: string) => `sign-in-failures|account|${sha256Hex(email).slice(0, 32)}`
const addressKey = (address: string) => `sign-in-failures|address|${address.slice(0, 100)}`

/** Rate limits follow the wall clock, as every limit of the kit does, whatever business time says. */
const wallSeconds = Effect.map(realNow, (at) => Number(at / MICROS_PER_SECOND))

/** Seconds to wait when the account or the address is past its limit; undefined when it may try. Counts nothing. */
export const signInRetryAfter = (email: string, address: string) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const nowSeconds = yield* wallSeconds
    const [account, from] = yield* Effect.all([
      limiter.peek(accountKey(email), SIGN_IN_FAILURES_PER_ACCOUNT_PER_MINUTE, nowSeconds),
      limiter.peek(addressKey(address), SIGN_IN_FAILURES_PER_ADDRESS_PER_MINUTE, nowSeconds)
    ])
    if (account.allowed && from.allowed) return undefined
    return Math.max(account.allowed ? 0 : account.retryAfterSeconds, from.allowed ? 0 : from.retryAfterSeconds)
  })

/** Counts one failed sign-in against the account and the address. */
export const countSignInFailure = (email: string, address: string) =>
  Effect.gen(function*() {
    const limiter = yield* RateLimiter
    const nowSeconds = yield* wallSeconds
    yield* limiter.check(accountKey(email), SIGN_IN_FAILURES_PER_ACCOUNT_PER_MINUTE, nowSeconds)
    yield* limiter.check(addressKey(address), SIGN_IN_FAILURES_PER_ADDRESS_PER_MINUTE, nowSeconds)
  })
