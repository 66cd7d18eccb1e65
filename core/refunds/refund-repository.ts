import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { KeysetPosition } from "../shared/keyset-page.js"
import type { StorageError } from "../shared/storage-error.js"
import type { NewRefund, Refund, RefundReferenceUsed } from "./refund.js"

/** One page of a merchant's refunds in one environment; every filter given must hold. */
export interface RefundListQuery {
  readonly merchantId: MerchantId
  readonly environment: Environment
  /** Only the refunds of this payment. */
  readonly paymentTrxId?: string
  /** Created at or after. */
  readonly since?: Instant
  /** Created before. */
  readonly until?: Instant
  /** Only refunds after this one, newest first (a keyset: pages never shift while refunds arrive). */
  readonly before?: KeysetPosition<string>
  readonly limit: number
}

export class RefundRepository extends Context.Tag("merchant-payments/RefundRepository")<RefundRepository, {
  readonly insert: (refund: NewRefund) => Effect.Effect<Refund, RefundReferenceUsed | StorageError>
  readonly findByReference: (
    paymentTrxId: string,
    refRefund: string
  ) => Effect.Effect<Option.Option<Refund>, StorageError>
  /** Oldest first. */
  readonly listForPayment: (paymentTrxId: string) => Effect.Effect<ReadonlyArray<Refund>, StorageError>
  /** Newest first by (created_at, refund_trx_id). */
  readonly list: (query: RefundListQuery) => Effect.Effect<ReadonlyArray<Refund>, StorageError>
}>() {}
