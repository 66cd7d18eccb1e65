import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { GatewayId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { KeysetPosition } from "../shared/keyset-page.js"
import type { StorageError } from "../shared/storage-error.js"
import type { ReconciliationLine, ReconciliationOutcome, ReconciliationReport, ReportSource, SettlementLine } from "./settlement.js"

/** A settlement report to store and reconcile. */
export interface NewReconciliation {
  readonly id: string
  readonly gatewayId: GatewayId
  readonly gatewayCode: string
  readonly environment: Environment
  /** The report's period [from, to): the kit's records in it that no line names are missing at the gateway. */
  readonly from: Instant
  readonly to: Instant
  /** The kit's records a line may match: the period widened on both sides (reconcile.ts says why). */
  readonly kitFrom: Instant
  readonly kitTo: Instant
  readonly source: ReportSource
  readonly lines: ReadonlyArray<SettlementLine>
  readonly createdAt: Instant
}

export interface ReconciliationLineQuery {
  readonly reportId: string
  readonly outcome?: ReconciliationOutcome
  /** Lines after this number, in order. */
  readonly afterLine?: number
  readonly limit: number
}

/**
 * The reports and their lines. `reconcile` matches set-wise in the store (the lines written in bulk,
 * the kit's records of the gateway read once and joined on indexes), never a query per line: the
 * kit's side of a payment is its gateway reference (the checkout attempt's, else its trx_id) and the
 * gateway-clearing line of its journal entry; of a refund sent to the gateway, likewise.
 */
export class ReconciliationRepository extends Context.Tag("merchant-payments/ReconciliationRepository")<ReconciliationRepository, {
  readonly reconcile: (report: NewReconciliation) => Effect.Effect<ReconciliationReport, StorageError>
  readonly find: (id: string) => Effect.Effect<Option.Option<ReconciliationReport>, StorageError>
  /** Newest first. */
  readonly list: (query: { readonly limit: number; readonly before?: KeysetPosition<string> }) => Effect.Effect<ReadonlyArray<ReconciliationReport>, StorageError>
  /** In line order. */
  readonly lines: (query: ReconciliationLineQuery) => Effect.Effect<ReadonlyArray<ReconciliationLine>, StorageError>
}>() {}
