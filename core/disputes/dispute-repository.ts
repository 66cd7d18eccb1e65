import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { KeysetPosition } from "../shared/keyset-page.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Dispute, DisputeStatus, EvidenceFile } from "./dispute.js"

/** A newest-first page's filters; every one optional but the limit. */
export interface DisputeQuery {
  readonly merchantId?: MerchantId
  readonly environment?: Environment
  readonly status?: DisputeStatus
  /** One payment's disputes only. */
  readonly paymentTrxId?: string
  readonly before?: KeysetPosition<string>
  readonly limit: number
}

/** What a transition writes besides the status; evidence only when it is given. */
export interface DisputeChange {
  readonly status: DisputeStatus
  readonly evidence?: { readonly text: string; readonly files: ReadonlyArray<EvidenceFile> }
  readonly evidenceDueBy?: Instant
  readonly at: Instant
}

export class DisputeRepository extends Context.Tag("merchant-payments/DisputeRepository")<DisputeRepository, {
  /** Written in the caller's transaction, with the wallet debit it records. */
  readonly insert: (dispute: Dispute) => Effect.Effect<void, StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<Dispute>, StorageError>
  /** One of the merchant's disputes in the environment; another merchant's or environment's id is none. */
  readonly findScoped: (merchantId: MerchantId, environment: Environment, id: string) => Effect.Effect<Option.Option<Dispute>, StorageError>
  /** The dispute a gateway reported under its own id, if it was reported before. */
  readonly findByGatewayId: (gatewayId: GatewayId, gatewayDisputeId: string) => Effect.Effect<Option.Option<Dispute>, StorageError>
  /** Any dispute by id, its row locked until the transaction ends (PostgreSQL). */
  readonly findForUpdate: (id: string) => Effect.Effect<Option.Option<Dispute>, StorageError>
  /** Moves the dispute from `from` to the change's status: none when it no longer stood there (a lost race moves nothing). */
  readonly transition: (id: string, from: DisputeStatus, change: DisputeChange) => Effect.Effect<Option.Option<Dispute>, StorageError>
  /** What the payment's disputes hold of it: the amounts of those open or lost. */
  readonly heldOfPayment: (trxId: string) => Effect.Effect<Amount, StorageError>
  /** Newest first, by (created_at, id). */
  readonly list: (query: DisputeQuery) => Effect.Effect<ReadonlyArray<Dispute>, StorageError>
}>() {}
