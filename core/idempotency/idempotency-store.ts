import { Context, type Effect } from "effect"
import type { Environment } from "../merchants/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/** Keys are scoped per merchant and environment: two merchants may use the same key. */
export interface IdempotencyScope {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly key: string
}

export interface StoredResponse {
  readonly status: number
  readonly body: string
}

export type BeginResult =
  /** This caller owns the key now and must finish with complete or abandon. */
  | { readonly _tag: "Started" }
  /** The identical request is still running elsewhere. */
  | { readonly _tag: "InFlight" }
  /** The identical request finished before: answer with its response. */
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  /** The key was used with other parameters. */
  | { readonly _tag: "Mismatch" }

export class IdempotencyStore extends Context.Tag("merchant-payments/IdempotencyStore")<IdempotencyStore, {
  /**
   * Takes the key for a request with this fingerprint. An expired record, or an in-flight one
   * whose lock ran out (its process died), is taken over as if it did not exist.
   */
  readonly begin: (request: {
    readonly scope: IdempotencyScope
    readonly fingerprint: string
    readonly now: Instant
    readonly lockedUntil: Instant
    readonly expiresAt: Instant
  }) => Effect.Effect<BeginResult, StorageError>
  readonly complete: (scope: IdempotencyScope, response: StoredResponse) => Effect.Effect<void, StorageError>
  /** Forgets an in-flight key (a 5xx answer is not stored, so a retry runs again). */
  readonly abandon: (scope: IdempotencyScope) => Effect.Effect<void, StorageError>
  /** Removes records that expired before `now`; returns how many. */
  readonly purgeExpired: (now: Instant) => Effect.Effect<number, StorageError>
}>() {}
