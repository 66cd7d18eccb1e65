import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Environment } from "../shared/environment.js"
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

export interface KeyedRequest {
  readonly scope: IdempotencyScope
  /** What makes two requests "identical" (idempotency-policy's fingerprintsOf): the one stored. */
  readonly fingerprint: string
  /** Fingerprints of the same request a record written earlier may hold (another key, the unkeyed form). */
  readonly alsoMatches?: ReadonlyArray<string>
  readonly now: Instant
  /** Until when a completed request is replayed. */
  readonly expiresAt: Instant
}

export type KeyedOutcome<A> =
  /** This request ran; its response was stored with its effect, or neither was kept. */
  | { readonly _tag: "Ran"; readonly value: A }
  /** The identical request is running right now. */
  | { readonly _tag: "InFlight" }
  /** The identical request finished before: answer with its response. */
  | { readonly _tag: "Replay"; readonly response: StoredResponse }
  /** The key was used with other parameters. */
  | { readonly _tag: "Mismatch" }

export class IdempotencyStore extends Context.Tag("merchant-payments/IdempotencyStore")<IdempotencyStore, {
  /**
   * Runs `effect` at most once per key. The key is claimed, the effect runs, and its response is
   * stored in ONE transaction, so a key is either unused or done with its response: a crash at any
   * point leaves no key that claims an effect it cannot answer for, nor an effect without its key.
   * When `keep` returns undefined (a server failure is not an answer), or the effect fails, the
   * whole transaction rolls back: the effect is undone and the key stays free for a retry.
   * An expired record is taken over as if it did not exist.
   */
  readonly once: <A, E, R>(
    request: KeyedRequest,
    effect: Effect.Effect<A, E, R>,
    keep: (value: A) => StoredResponse | undefined
  ) => Effect.Effect<KeyedOutcome<A>, E | StorageError, R>
  /** Removes records that expired before `now`; returns how many. */
  readonly purgeExpired: (now: Instant) => Effect.Effect<number, StorageError>
}>() {}
