import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { requireMerchant } from "../merchants/merchant-admin.js"
import type { MerchantId } from "../shared/ids.js"
import { enqueueMail } from "../mail/enqueue-mail.js"
import { now, plusSeconds, toIsoString } from "../shared/instant.js"
import { isEmailAddress } from "../shared/text-rules.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { DashboardSessionRepository } from "./dashboard-session-repository.js"
import { LastOwner, type MerchantUser, MerchantUserNotFound, normalizeEmail, USER_ROLES, type UserRole } from "./merchant-user.js"
import { MerchantUserRepository } from "./merchant-user-repository.js"
import { issueLinkToken, PASSWORD_LINK_SECONDS } from "./password-link.js"

/** The longest address SMTP can carry (RFC 5321: a 256-octet path less its angle brackets). */
export const MAX_EMAIL_LENGTH = 254

const isRole = (value: unknown): value is UserRole => (USER_ROLES as ReadonlyArray<unknown>).includes(value)

/** The input as sent (a form, a JSON body): every problem at once, in the API's words. */
const readNewUser = (input: { readonly email: unknown; readonly role: unknown }) => {
  const errors: Record<string, Array<string>> = {}
  const email = typeof input.email === "string" ? normalizeEmail(input.email) : undefined
  if (input.email === undefined || input.email === null || email === "") errors["email"] = ["The email field is required."]
  else if (email === undefined) errors["email"] = ["The email field must be a string."]
  else if ([...email].length > MAX_EMAIL_LENGTH) errors["email"] = [`The email field must not be greater than ${MAX_EMAIL_LENGTH} characters.`]
  else if (!isEmailAddress(email)) errors["email"] = ["The email field must be a valid email address."]
  if (input.role === undefined || input.role === null) errors["role"] = ["The role field is required."]
  else if (!isRole(input.role)) errors["role"] = [`The selected role is invalid; it must be one of: ${USER_ROLES.join(", ")}.`]
  if (email === undefined || !isRole(input.role) || Object.keys(errors).length > 0) return Effect.fail(new ValidationFailed({ errors, code: "VALIDATION_FAILED" }))
  return Effect.succeed({ email, role: input.role })
}

/** The merchant's user, or MerchantUserNotFound: another merchant's user is not this merchant's to touch. */
const requireUser = (merchantId: MerchantId, userId: string) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    const user = yield* (yield* MerchantUserRepository).findById(userId)
    if (Option.isNone(user) || user.value.merchantId !== merchantId) return yield* new MerchantUserNotFound({ userId })
    return user.value
  })

/** The link by mail too (when production mail is on), in the link's own transaction. */
const mailPasswordLink = (user: MerchantUser, token: string, invited: boolean) =>
  Effect.gen(function*() {
    const expiresAt = plusSeconds(yield* now, PASSWORD_LINK_SECONDS)
    yield* enqueueMail({
      merchantId: user.merchantId,
      environment: "production",
      to: user.email,
      kind: "dashboard_set_password",
      facts: { userEmail: user.email, token, expiresAt: toIsoString(expiresAt), invited }
    })
  })

/**
 * A new dashboard user, invited: it signs in once it has set a password through the link whose
 * token is returned here, once (only its hash is stored), valid for 24 hours.
 */
export const createMerchantUser = (merchantId: MerchantId, input: { readonly email: unknown; readonly role: unknown }) =>
  Effect.gen(function*() {
    const { email, role } = yield* readNewUser(input)
    yield* requireMerchant(merchantId)
    const id = yield* (yield* Ids).uuid
    const createdAt = yield* now
    return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
      const user = yield* (yield* MerchantUserRepository).create({ id, merchantId, email, role, createdAt })
      const passwordToken = yield* issueLinkToken(user.id)
      yield* mailPasswordLink(user, passwordToken, true)
      return { user, passwordToken }
    }))
  })

/** A fresh 24-hour set-password link (a forgotten password); the user's earlier links stop working. */
export const issuePasswordLink = (merchantId: MerchantId, userId: string) =>
  Effect.gen(function*() {
    const user = yield* requireUser(merchantId, userId)
    return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
      const passwordToken = yield* issueLinkToken(user.id)
      yield* mailPasswordLink(user, passwordToken, false)
      return { user, passwordToken }
    }))
  })

/** Every user of the merchant, oldest first. */
export const listMerchantUsers = (merchantId: MerchantId) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    return yield* (yield* MerchantUserRepository).listByMerchant(merchantId)
  })

/**
 * Refuses to take away the merchant's last active owner: without one nobody manages its account.
 * Asked inside the change's transaction, with the owners locked (activeOwnerIds).
 */
const keepAnOwner = (user: MerchantUser) =>
  Effect.gen(function*() {
    if (user.role !== "owner") return
    const owners = yield* (yield* MerchantUserRepository).activeOwnerIds(user.merchantId)
    if (owners.length === 1 && owners[0] === user.id) return yield* new LastOwner({ userId: user.id })
  })

/**
 * Disables a user, ending its sessions at once, or enables it again: active when it has a password,
 * still invited when it never set one. The merchant's last active owner is not disabled.
 */
export const setMerchantUserDisabled = (merchantId: MerchantId, userId: string, disabled: boolean) =>
  Effect.gen(function*() {
    const user = yield* requireUser(merchantId, userId)
    return yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
      if (disabled) yield* keepAnOwner(user)
      const updated = yield* (yield* MerchantUserRepository).setDisabled(userId, disabled)
      if (Option.isNone(updated)) return yield* new MerchantUserNotFound({ userId })
      if (disabled) yield* (yield* DashboardSessionRepository).deleteForUser(userId)
      return updated.value satisfies MerchantUser
    }))
  })

/** Removes a user, its sessions (it is signed out everywhere at once) and its links; never the merchant's last active owner. */
export const deleteMerchantUser = (merchantId: MerchantId, userId: string) =>
  Effect.gen(function*() {
    const user = yield* requireUser(merchantId, userId)
    yield* (yield* Transactor).withTransaction(Effect.gen(function*() {
      yield* keepAnOwner(user)
      const deleted = yield* (yield* MerchantUserRepository).delete(userId)
      if (!deleted) return yield* new MerchantUserNotFound({ userId })
    }))
  })
