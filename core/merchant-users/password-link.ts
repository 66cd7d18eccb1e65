import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { now, plusSeconds } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { hashPassword } from "../signing/password-hash.js"
import { DashboardSessionRepository } from "./dashboard-session-repository.js"
import { type MerchantUser, PasswordLinkInvalid } from "./merchant-user.js"
import { MerchantUserRepository, type PasswordLink } from "./merchant-user-repository.js"
import { newSecretToken, tokenHash } from "./secret-token.js"

/** A day: long enough to find the mail the next morning, short enough that an old mail is worthless. */
export const PASSWORD_LINK_SECONDS = 24 * 60 * 60

/**
 * Length is what makes a password hard to guess (NIST SP 800-63B): at least 12 characters and no
 * composition rules. The upper bound only keeps a huge body from being hashed.
 */
export const PASSWORD_MIN_LENGTH = 12
export const PASSWORD_MAX_LENGTH = 1024

/** A fresh one-time link for the user, voiding its earlier ones; the token is known only to the caller. */
export const issueLinkToken = (userId: string) =>
  Effect.gen(function*() {
    const token = yield* newSecretToken
    const expiresAt = plusSeconds(yield* now, PASSWORD_LINK_SECONDS)
    yield* (yield* MerchantUserRepository).createPasswordLink({ tokenHash: tokenHash(token), userId, expiresAt })
    return token
  })

/** The link's user, while the link is unexpired and its user may still sign in. */
const usableLinkUser = (link: Option.Option<PasswordLink>) =>
  Effect.gen(function*() {
    if (Option.isNone(link) || link.value.expiresAt <= (yield* now)) return yield* new PasswordLinkInvalid()
    const user = yield* (yield* MerchantUserRepository).findById(link.value.userId)
    // A disabled user's link opens nothing: disabling someone must not leave them a way back in.
    if (Option.isNone(user) || user.value.status === "disabled") return yield* new PasswordLinkInvalid()
    return user.value
  })

/** Whom the link is for, without using it up: for showing the set-password page. */
export const passwordLinkUser = (token: string): Effect.Effect<MerchantUser, PasswordLinkInvalid | StorageError, MerchantUserRepository> =>
  Effect.flatMap(MerchantUserRepository, (users) => users.findPasswordLink(tokenHash(token))).pipe(Effect.flatMap(usableLinkUser))

const passwordProblem = (password: string): string | undefined => {
  const length = [...password].length
  if (length < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`
  if (length > PASSWORD_MAX_LENGTH) return `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`
  return undefined
}

/**
 * Sets the user's password through a link, which it uses up: the user becomes active and every
 * session it had ends (a reset after a leak must throw the intruder out). The password is checked
 * before the link is touched, so a too-short one does not spend it.
 */
export const setPasswordWithLink = (token: string, password: string) =>
  Effect.gen(function*() {
    const problem = passwordProblem(password)
    if (problem !== undefined) return yield* ValidationFailed.field("password", problem)
    const users = yield* MerchantUserRepository
    const sessions = yield* DashboardSessionRepository
    // Refused early, so a dead link costs no hashing; the hash is made outside the transaction,
    // which would otherwise hold SQLite's one writer for the whole of it.
    yield* passwordLinkUser(token)
    const passwordHash = yield* hashPassword(password)
    return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
      // Used up in one statement: of two hosts racing with the same link, one gets here with it.
      const user = yield* usableLinkUser(yield* users.consumePasswordLink(tokenHash(token)))
      const updated = yield* users.setPassword(user.id, passwordHash)
      if (Option.isNone(updated)) return yield* new PasswordLinkInvalid()
      yield* sessions.deleteForUser(user.id)
      return updated.value
    }))
  })
