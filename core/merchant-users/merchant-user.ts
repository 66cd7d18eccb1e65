import * as Schema from "effect/Schema"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/** What a dashboard user may do: an owner manages the merchant's account, a viewer only reads. */
export const USER_ROLES = ["owner", "viewer"] as const
export type UserRole = typeof USER_ROLES[number]

/** `invited`: the user exists but has set no password yet, so it cannot sign in. */
export type UserStatus = "invited" | "active" | "disabled"

/**
 * Someone who signs in to a merchant's dashboard. The email is stored lower-cased and trimmed and is
 * unique across the whole kit, so one sign-in always names exactly one merchant.
 */
export interface MerchantUser {
  readonly id: string
  readonly merchantId: MerchantId
  readonly email: string
  readonly role: UserRole
  readonly status: UserStatus
  readonly createdAt: Instant
  readonly lastSignInAt: Instant | null
}

/** The one spelling of an email the store keeps and looks up, so `Ann@Shop.example ` finds `ann@shop.example`. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase()

/** No such user, or (to the caller) none of this merchant's: another merchant's user is not found either. */
export class MerchantUserNotFound extends Schema.TaggedError<MerchantUserNotFound>()("MerchantUserNotFound", {
  userId: Schema.String
}) {}

export class MerchantUserEmailTaken extends Schema.TaggedError<MerchantUserEmailTaken>()("MerchantUserEmailTaken", {
  email: Schema.String
}) {}

/**
 * Refused: disabling or deleting this user would leave its merchant without an active owner, and
 * nobody could manage the account from the dashboard.
 */
export class LastOwner extends Schema.TaggedError<LastOwner>()("LastOwner", {
  userId: Schema.String
}) {}

/** A set-password link that is unknown, already used, expired, or whose user may no longer sign in. */
export class PasswordLinkInvalid extends Schema.TaggedError<PasswordLinkInvalid>()("PasswordLinkInvalid", {}) {}

/**
 * One answer for every refused sign-in (unknown email, wrong password, a disabled or invited user),
 * so the answer never tells a stranger whether an account exists.
 */
export class SignInFailed extends Schema.TaggedError<SignInFailed>()("SignInFailed", {}) {}

/** Too many failed sign-ins for the account or from the address: try again after the window. */
export class SignInThrottled extends Schema.TaggedError<SignInThrottled>()("SignInThrottled", {
  retryAfterSeconds: Schema.Number
}) {}

/** The session cookie names no live session (unknown, idle or too old, or its user is no longer active). */
export class SessionInvalid extends Schema.TaggedError<SessionInvalid>()("SessionInvalid", {}) {}
