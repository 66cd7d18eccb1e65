import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { KeysetPosition } from "../shared/keyset-page.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Payout, PayoutStatus } from "./payout.js"

/** A newest-first page's filters; every one optional but the limit. */
export interface PayoutQuery {
  readonly merchantId?: MerchantId
  readonly environment?: Environment
  readonly status?: PayoutStatus
  readonly since?: Instant
  readonly until?: Instant
  readonly before?: KeysetPosition<string>
  readonly limit: number
}

/** What a transition writes besides the status. */
export interface PayoutChange {
  readonly status: PayoutStatus
  readonly reason: string | null
  readonly reference: string | null
  readonly at: Instant
  /**
   * Given on approval only: the rail that carries the payout (null when none serves its destination),
   * with `at` as the approval time; left out, both stay as they were.
   */
  readonly rail?: string | null
}

/** The approved payouts a rail has still to send, of one book, approved in [from, until). */
export interface ApprovedPayoutQuery {
  readonly rail: string
  readonly environment: Environment
  readonly currency: string
  readonly from: Instant
  readonly until: Instant
}

export class PayoutRepository extends Context.Tag("merchant-payments/PayoutRepository")<PayoutRepository, {
  /** Written in the caller's transaction, with the wallet debit it records. */
  readonly insert: (payout: Payout) => Effect.Effect<void, StorageError>
  /** One of the merchant's payouts in the environment; another merchant's or environment's id is none. */
  readonly findScoped: (merchantId: MerchantId, environment: Environment, id: string) => Effect.Effect<Option.Option<Payout>, StorageError>
  /** Any payout by id, its row locked until the transaction ends (PostgreSQL): an operator's change reads it first. */
  readonly findForUpdate: (id: string) => Effect.Effect<Option.Option<Payout>, StorageError>
  /**
   * Moves the payout from `from` to the change's status: none when it was no longer `from` (a change
   * that lost a race moves nothing).
   */
  readonly transition: (id: string, from: PayoutStatus, change: PayoutChange) => Effect.Effect<Option.Option<Payout>, StorageError>
  /** Still approved, oldest approval first (then by id): what the manual rail's daily file lists. */
  readonly listApproved: (query: ApprovedPayoutQuery) => Effect.Effect<ReadonlyArray<Payout>, StorageError>
  /** Newest first, by (created_at, id). */
  readonly list: (query: PayoutQuery) => Effect.Effect<ReadonlyArray<Payout>, StorageError>
}>() {}
