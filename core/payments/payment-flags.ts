import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { GatewayId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * Why the core refused a gateway's word about a payment, for an administrator to look into: the
 * payment itself is left as it was (never completed on a mismatched amount).
 */
export type FlagReason = "amount_mismatch" | "currency_mismatch" | "reported_after_end"

export interface PaymentFlag {
  readonly trxId: string
  readonly gatewayId: GatewayId | null
  readonly reason: FlagReason
  readonly detail: string
  readonly createdAt: Instant
}

export class PaymentFlags extends Context.Tag("merchant-payments/PaymentFlags")<PaymentFlags, {
  /** One flag per payment, gateway and reason: a gateway repeating itself adds nothing. */
  readonly raise: (flag: PaymentFlag) => Effect.Effect<void, StorageError>
  readonly listForPayment: (trxId: string) => Effect.Effect<ReadonlyArray<PaymentFlag>, StorageError>
  /** The most recent first. */
  readonly listRecent: (limit: number) => Effect.Effect<ReadonlyArray<PaymentFlag>, StorageError>
}>() {}
