import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { MerchantUser, MerchantUserEmailTaken, UserRole } from "./merchant-user.js"

export interface NewMerchantUser {
  readonly id: string
  readonly merchantId: MerchantId
  /** Already normalized (normalizeEmail): the store compares it as it is. */
  readonly email: string
  readonly role: UserRole
  readonly createdAt: Instant
}

/** A user as sign-in needs it: with its stored password hash, null while it is invited. */
export interface MerchantUserCredentials {
  readonly user: MerchantUser
  readonly passwordHash: string | null
}

/** A one-time set-password link as stored: the SHA-256 of its token, never the token. */
export interface PasswordLink {
  readonly tokenHash: string
  readonly userId: string
  readonly expiresAt: Instant
}

/**
 * The merchant dashboard's users and their one-time set-password links. Emails are unique across the
 * whole kit (one sign-in names one merchant); deleting a user removes its links and sessions.
 */
export class MerchantUserRepository extends Context.Tag("merchant-payments/MerchantUserRepository")<MerchantUserRepository, {
  /** A new user, `invited` (no password yet). */
  readonly create: (user: NewMerchantUser) => Effect.Effect<MerchantUser, MerchantUserEmailTaken | StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<MerchantUser>, StorageError>
  /** By normalized email. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<MerchantUserCredentials>, StorageError>
  /**
   * The ids of the merchant's active owners. Inside a transaction they stay locked until it ends
   * (SQLite's one writer, PostgreSQL row locks), so two removals at once cannot each count the other.
   */
  readonly activeOwnerIds: (merchantId: MerchantId) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** Oldest first (creation time, then id). */
  readonly listByMerchant: (merchantId: MerchantId) => Effect.Effect<ReadonlyArray<MerchantUser>, StorageError>
  /**
   * Disables, or enables: an enabled user is `active` when it has a password and `invited` when not,
   * decided in the store in one statement so a password set meanwhile is never forgotten.
   */
  readonly setDisabled: (id: string, disabled: boolean) => Effect.Effect<Option.Option<MerchantUser>, StorageError>
  /** Stores the hash; the user becomes `active` unless it is disabled, which it stays. */
  readonly setPassword: (id: string, passwordHash: string) => Effect.Effect<Option.Option<MerchantUser>, StorageError>
  /**
   * Replaces the hash only while it is still `expected` (compare-and-set); whether it did. A password
   * set meanwhile is never overwritten with a re-hash of the old one.
   */
  readonly replacePasswordHash: (id: string, expected: string, passwordHash: string) => Effect.Effect<boolean, StorageError>
  readonly recordSignIn: (id: string, at: Instant) => Effect.Effect<void, StorageError>
  /** Removes the user with its links and sessions; false when there was none. */
  readonly delete: (id: string) => Effect.Effect<boolean, StorageError>
  /** Stores a link and voids every earlier link of its user, at once. */
  readonly createPasswordLink: (link: PasswordLink) => Effect.Effect<void, StorageError>
  /** The link, expired or not, without using it up (to show the set-password page). */
  readonly findPasswordLink: (tokenHash: string) => Effect.Effect<Option.Option<PasswordLink>, StorageError>
  /**
   * Deletes the link and returns it, in one statement: of two hosts consuming the same link at once,
   * exactly one gets it. Expiry is the caller's to check.
   */
  readonly consumePasswordLink: (tokenHash: string) => Effect.Effect<Option.Option<PasswordLink>, StorageError>
  /** Deletes links that expired before `before`; how many. */
  readonly deleteExpiredLinks: (before: Instant) => Effect.Effect<number, StorageError>
}>() {}
