import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Environment } from "../shared/environment.js"

/**
 * One environment's credential set as stored. The API key is kept only as a hash; the client and
 * webhook secrets are sealed (encrypted) by the caller before they reach the store, so a database
 * dump alone reveals no usable secret.
 */
export interface StoredCredentials {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly merchantKey: string
  readonly apiKeyHash: string
  readonly sealedClientSecret: string
  readonly sealedWebhookSecret: string
  readonly createdAt: Instant
  /**
   * Null for the environment's current set. A set replaced with an overlap keeps working until this
   * moment (wall-clock time, like every security window), still sealed, and is destroyed after it.
   */
  readonly retiresAt: Instant | null
}

export type NewCredentials = Omit<StoredCredentials, "createdAt" | "retiresAt">

export class MerchantKeyTaken extends Schema.TaggedError<MerchantKeyTaken>()("MerchantKeyTaken", {
  environment: Schema.String
}) {}

export class CredentialRepository extends Context.Tag("merchant-payments/CredentialRepository")<CredentialRepository, {
  /**
   * Stores a new current set for the merchant and environment. The set it replaces stops working at
   * once, or, given `retireAt`, stays valid until then beside the new one (a rotation with overlap).
   */
  readonly rotate: (
    credentials: NewCredentials,
    options?: { readonly retireAt?: Instant }
  ) => Effect.Effect<StoredCredentials, MerchantKeyTaken | StorageError>
  /** The current set with this merchant key, or a replaced one still valid at `at` (wall clock). */
  readonly findByMerchantKey: (
    environment: Environment,
    merchantKey: string,
    at: Instant
  ) => Effect.Effect<Option.Option<StoredCredentials>, StorageError>
  /** The current set. */
  readonly findForMerchant: (
    merchantId: MerchantId,
    environment: Environment
  ) => Effect.Effect<Option.Option<StoredCredentials>, StorageError>
  /** Every set valid at `at`: the current one first, then replaced ones still in their overlap, newest first. */
  readonly liveSets: (
    merchantId: MerchantId,
    environment: Environment,
    at: Instant
  ) => Effect.Effect<ReadonlyArray<StoredCredentials>, StorageError>
  /**
   * `liveSets` of several merchants at once, every environment: each set names its merchant and
   * environment, and within one of those they come in `liveSets`' order.
   */
  readonly liveSetsOf: (
    merchantIds: ReadonlyArray<MerchantId>,
    at: Instant
  ) => Effect.Effect<ReadonlyArray<StoredCredentials>, StorageError>
  /** Ends every overlap of the environment now: its replaced sets are destroyed. How many were. */
  readonly endOverlap: (merchantId: MerchantId, environment: Environment) => Effect.Effect<number, StorageError>
  /** Destroys every replaced set whose overlap ended by `at`. How many were. */
  readonly destroyRetired: (at: Instant) => Effect.Effect<number, StorageError>
}>() {}
