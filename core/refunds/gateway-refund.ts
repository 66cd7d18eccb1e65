import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Amount } from "../money/amount.js"
import type { GatewayRefundStatus } from "../gateways/gateway-plugin.js"
import type { GatewayId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * A refund on its way back to the customer through the gateway that took the payment: an outbox
 * row written in the refund's own transaction, so a crash between the wallet debit and the gateway
 * call loses nothing, and executed later with one idempotency key however often it is retried.
 */
export interface GatewayRefund {
  readonly refundTrxId: string
  readonly paymentTrxId: string
  readonly gatewayId: GatewayId
  readonly amount: Amount
  readonly currency: string
  readonly idempotencyKey: string
  readonly status: GatewayRefundStatus
  /** Calls made to the plugin so far, answered or not. */
  readonly attempts: number
  /** When the plugin is called next; null once the status is final. */
  readonly nextAttemptAt: Instant | null
  readonly gatewayReference: string | null
  /** The gateway's word, or why the last call failed. */
  readonly message: string | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

/** What one call to the plugin leaves on the row. */
export interface GatewayRefundProgress {
  readonly status: GatewayRefundStatus
  readonly attempts: number
  readonly nextAttemptAt: Instant | null
  readonly gatewayReference: string | null
  readonly message: string | null
  readonly at: Instant
}

/** Stable per refund: a retry after a crash or a timeout cannot pay the customer twice. */
export const gatewayRefundKey = (refundTrxId: string): string => `mp-refund-${refundTrxId}`

/** The row a committed refund enqueues: pending and due at once. */
export const newGatewayRefund = (
  refund: { readonly refundTrxId: string; readonly paymentTrxId: string; readonly amount: Amount; readonly currency: string },
  gatewayId: GatewayId,
  at: Instant
): GatewayRefund => ({
  refundTrxId: refund.refundTrxId,
  paymentTrxId: refund.paymentTrxId,
  gatewayId,
  amount: refund.amount,
  currency: refund.currency,
  idempotencyKey: gatewayRefundKey(refund.refundTrxId),
  status: "pending",
  attempts: 0,
  nextAttemptAt: at,
  gatewayReference: null,
  message: null,
  createdAt: at,
  updatedAt: at
})

export class GatewayRefunds extends Context.Tag("merchant-payments/GatewayRefunds")<GatewayRefunds, {
  /** Call inside the refund's transaction: the row commits with the refund or not at all. */
  readonly enqueue: (refund: GatewayRefund) => Effect.Effect<void, StorageError>
  /** Rows whose next call is due at `now` (business time) and not under a lease live at `leaseNow` (wall clock), earliest first. */
  readonly listDue: (now: Instant, leaseNow: Instant, limit: number) => Effect.Effect<ReadonlyArray<GatewayRefund>, StorageError>
  /**
   * Takes a due row for this caller until `leaseUntil` (wall clock): only if its next call is still
   * `expectedNextAttemptAt` and no lease on it is live at `leaseNow`, so of several hosts reading the
   * same due row exactly one calls the plugin. The lease is on real time: moving a manual clock mid-call
   * cannot hand the row to a second caller. A caller that dies leaves the lease to lapse.
   */
  readonly claim: (refundTrxId: string, expectedNextAttemptAt: Instant, leaseNow: Instant, leaseUntil: Instant) => Effect.Effect<boolean, StorageError>
  /** Records a call's outcome and ends the lease. */
  readonly record: (refundTrxId: string, progress: GatewayRefundProgress) => Effect.Effect<void, StorageError>
  readonly find: (refundTrxId: string) => Effect.Effect<Option.Option<GatewayRefund>, StorageError>
  /** Oldest first. */
  readonly listForPayment: (paymentTrxId: string) => Effect.Effect<ReadonlyArray<GatewayRefund>, StorageError>
}>() {}
