import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { ActorType, AuditEntry, NewAuditEntry } from "./audit-entry.js"

/** Where a page of the log continues: after the last entry shown, in (createdAt, id) order. */
export interface AuditPosition {
  readonly createdAt: Instant
  readonly id: number
}

export interface AuditQuery {
  readonly merchantId?: MerchantId
  /** Only the changes of this kind of actor: the dashboard's own (merchant users) for a merchant's owners. */
  readonly actorType?: ActorType
  /** Created at or after. */
  readonly since?: Instant
  /** Created before. */
  readonly until?: Instant
  /** Entries older than this one only. */
  readonly before?: AuditPosition
  readonly limit: number
}

/**
 * The audit log: written in the transaction of the change it records where the change has one, so
 * a change is never committed without its entry. Entries are never changed or removed.
 */
export class AuditLog extends Context.Tag("merchant-payments/AuditLog")<AuditLog, {
  readonly record: (entry: NewAuditEntry, at: Instant) => Effect.Effect<AuditEntry, StorageError>
  /** Newest first: by creation time, then id. */
  readonly list: (query: AuditQuery) => Effect.Effect<ReadonlyArray<AuditEntry>, StorageError>
}>() {}
