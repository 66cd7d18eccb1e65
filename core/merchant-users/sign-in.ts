import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { enqueueMail } from "../mail/enqueue-mail.js"
import { now, plusSeconds, toIsoString } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { hashPassword, needsRehash, UNMATCHABLE_HASH, verifyPassword } from "../signing/password-hash.js"
import { DashboardSessionRepository } from "./dashboard-session-repository.js"
import { type MerchantUser, normalizeEmail, SessionInvalid, SignInFailed, SignInThrottled } from "./merchant-user.js"
import { MerchantUserRepository } from "./merchant-user-repository.js"
import { PASSWORD_MAX_LENGTH } from "./password-link.js"
import { newSecretToken, tokenHash } from "./secret-token.js"
import { countSignInFailure, signInRetryAfter } from "./sign-in-throttle.js"

/**
 * A session ends after 30 minutes without a request, and 12 hours after sign-in whatever happens:
 * a dashboard left open on a shared machine closes soon, and a stolen cookie is worth one working
 * day at most. Business time (the Clock), like every other expiry of the kit.
 */
export const SESSION_IDLE_SECONDS = 30 * 60
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60

/** Last-seen is written at most once a minute, not on every page; idle expiry is that much stricter. */
const TOUCH_INTERVAL_SECONDS = 60

/**
 * Signs a dashboard user in with its email and password: a new session whose token is returned once
 * (only its hash is stored). Every refusal is the same SignInFailed, after the same work: an unknown
 * email is verified against a hash no password matches, so the answer's timing tells nothing either.
 * Past the failure limits of the account or the address, SignInThrottled comes before any password
 * is looked at, for an existing and an unknown email alike.
 */
export const signIn = (input: { readonly email: string; readonly password: string; readonly address: string }) =>
  Effect.gen(function*() {
    const email = normalizeEmail(input.email)
    const retryAfterSeconds = yield* signInRetryAfter(email, input.address)
    if (retryAfterSeconds !== undefined) return yield* new SignInThrottled({ retryAfterSeconds })
    const users = yield* MerchantUserRepository
    const found = Option.getOrUndefined(yield* users.findByEmail(email))
    // No password longer than the maximum was ever set: such a one fails, after hashing its start only,
    // so a megabyte of password costs no more than any other.
    const tooLong = input.password.length > PASSWORD_MAX_LENGTH * 2 || [...input.password].length > PASSWORD_MAX_LENGTH
    const stored = found?.passwordHash ?? null
    const matches = yield* verifyPassword(input.password.slice(0, PASSWORD_MAX_LENGTH * 2), stored !== null && !tooLong ? stored : UNMATCHABLE_HASH)
    // A disabled or invited user is refused like a wrong password, after the same work.
    if (!matches || tooLong || found === undefined || found.user.status !== "active") {
      yield* countSignInFailure(email, input.address)
      return yield* new SignInFailed()
    }
    // A hash made with older parameters is made again with today's: a sign-in is the one moment the
    // password is known. Hashed before the transaction, which would otherwise hold SQLite's one writer.
    const rehashed = stored !== null && needsRehash(stored) ? yield* hashPassword(input.password) : undefined
    const sessionToken = yield* newSecretToken
    const at = yield* now
    yield* (yield* Transactor).withTransaction(Effect.all([
      (yield* DashboardSessionRepository).create({ idHash: tokenHash(sessionToken), userId: found.user.id, merchantId: found.user.merchantId, createdAt: at, lastSeenAt: at }),
      users.recordSignIn(found.user.id, at),
      stored !== null && rehashed !== undefined ? users.replacePasswordHash(found.user.id, stored, rehashed) : Effect.void,
      // A notice to the account's own address: a sign-in its owner did not make is seen at once.
      enqueueMail({
        merchantId: found.user.merchantId,
        environment: "production",
        to: found.user.email,
        kind: "dashboard_sign_in",
        facts: { userEmail: found.user.email, at: toIsoString(at), address: input.address }
      })
    ], { discard: true }))
    const user: MerchantUser = { ...found.user, lastSignInAt: at }
    return { sessionToken, user }
  })

/**
 * The user behind a session cookie, and the session's id (the stored hash: stable for the session and
 * no secret, so pages can bind their CSRF tokens to it). SessionInvalid when the session is unknown,
 * idle or too old, or its user is no longer active; a dead session is deleted as it is found.
 */
export const resumeSession = (sessionToken: string) =>
  Effect.gen(function*() {
    const sessions = yield* DashboardSessionRepository
    const sessionId = tokenHash(sessionToken)
    const found = yield* sessions.find(sessionId)
    if (Option.isNone(found)) return yield* new SessionInvalid()
    const session = found.value
    const at = yield* now
    const expired = at > plusSeconds(session.lastSeenAt, SESSION_IDLE_SECONDS) || at > plusSeconds(session.createdAt, SESSION_ABSOLUTE_SECONDS)
    const user = expired ? Option.none() : yield* (yield* MerchantUserRepository).findById(session.userId)
    if (Option.isNone(user) || user.value.status !== "active" || user.value.merchantId !== session.merchantId) {
      yield* sessions.delete(sessionId)
      return yield* new SessionInvalid()
    }
    if (at >= plusSeconds(session.lastSeenAt, TOUCH_INTERVAL_SECONDS)) yield* sessions.touch(sessionId, at)
    return { user: user.value, sessionId }
  })

/** Ends the session; an unknown or already ended one is no error (signing out twice is signing out). */
export const signOut = (sessionToken: string) =>
  Effect.flatMap(DashboardSessionRepository, (sessions) => sessions.delete(tokenHash(sessionToken)))
