import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { GatewayId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * A gateway a customer chose for a payment. Only a gateway that began a payment's checkout may
 * report its outcome, and its own reference for the payment is what status sync and refunds ask with.
 */
export interface CheckoutAttempt {
  readonly trxId: string
  readonly gatewayId: GatewayId
  readonly gatewayReference: string | null
  readonly beganAt: Instant
  /** When to ask the gateway next; null when it is not asked (no status sync, or the payment ended). */
  readonly nextSyncAt: Instant | null
  readonly syncCount: number
  /** When the gateway last declined it; cleared when the customer chooses the gateway again. */
  readonly declinedAt: Instant | null
}

/** An attempt due for a status sync, with its payment's state at the time it was read. */
export interface DueSync {
  readonly attempt: CheckoutAttempt
  readonly paymentPending: boolean
  readonly paymentExpiresAt: Instant
}

export class CheckoutAttempts extends Context.Tag("merchant-payments/CheckoutAttempts")<CheckoutAttempts, {
  /**
   * Records the choice; choosing the same gateway again keeps the first record and its reference,
   * and clears a decline (the customer is trying again).
   */
  readonly begin: (trxId: string, gatewayId: GatewayId, at: Instant, nextSyncAt: Instant | null) => Effect.Effect<void, StorageError>
  /** Keeps the latest reference the gateway gave; a report without one leaves it as it was. */
  readonly setReference: (trxId: string, gatewayId: GatewayId, reference: string) => Effect.Effect<void, StorageError>
  readonly find: (trxId: string, gatewayId: GatewayId) => Effect.Effect<Option.Option<CheckoutAttempt>, StorageError>
  readonly listForPayment: (trxId: string) => Effect.Effect<ReadonlyArray<CheckoutAttempt>, StorageError>
  /** Attempts whose next sync is due at `now`, earliest first. */
  readonly listDueSyncs: (now: Instant, limit: number) => Effect.Effect<ReadonlyArray<DueSync>, StorageError>
  /**
   * Takes a due sync for this caller: moves its next sync to `next` only if it is still `expected`,
   * so of several hosts reading the same due row exactly one asks the gateway.
   */
  readonly claimSync: (
    trxId: string,
    gatewayId: GatewayId,
    expected: Instant,
    next: Instant | null
  ) => Effect.Effect<boolean, StorageError>
  /** The gateway declined this attempt: kept for the choice page, and the gateway is not asked again about it. */
  readonly recordDecline: (trxId: string, gatewayId: GatewayId, at: Instant) => Effect.Effect<void, StorageError>
  /** No more syncs for the payment (it ended, or its checkout expired). */
  readonly stopSyncs: (trxId: string) => Effect.Effect<void, StorageError>
}>() {}
