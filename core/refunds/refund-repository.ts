import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "../shared/storage-error.js"
import type { NewRefund, Refund, RefundReferenceUsed } from "./refund.js"

export class RefundRepository extends Context.Tag("merchant-payments/RefundRepository")<RefundRepository, {
  readonly insert: (refund: NewRefund) => Effect.Effect<Refund, RefundReferenceUsed | StorageError>
  readonly findByReference: (
    paymentTrxId: string,
    refRefund: string
  ) => Effect.Effect<Option.Option<Refund>, StorageError>
  /** Oldest first. */
  readonly listForPayment: (paymentTrxId: string) => Effect.Effect<ReadonlyArray<Refund>, StorageError>
}>() {}
