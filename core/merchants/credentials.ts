import { Context, type Effect, type Option, Schema } from "effect"
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
}

export type NewCredentials = Omit<StoredCredentials, "createdAt">

export class MerchantKeyTaken extends Schema.TaggedError<MerchantKeyTaken>()("MerchantKeyTaken", {
  environment: Schema.String
}) {}

export class CredentialRepository extends Context.Tag("merchant-payments/CredentialRepository")<CredentialRepository, {
  /** Stores a new set for the merchant and environment; the previous set stops working at once. */
  readonly rotate: (credentials: NewCredentials) => Effect.Effect<StoredCredentials, MerchantKeyTaken | StorageError>
  readonly findByMerchantKey: (
    environment: Environment,
    merchantKey: string
  ) => Effect.Effect<Option.Option<StoredCredentials>, StorageError>
  readonly findForMerchant: (
    merchantId: MerchantId,
    environment: Environment
  ) => Effect.Effect<Option.Option<StoredCredentials>, StorageError>
}>() {}
