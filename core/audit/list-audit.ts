import * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import type { ActorType, AuditEntry } from "./audit-entry.js"
import { AuditLog } from "./audit-log.js"

export const DEFAULT_AUDIT_LIMIT = 50
export const MAX_AUDIT_LIMIT = 200

/** The shared paging (cursor, since, until, limit) and this list's own filters. */
export interface AuditListRequest extends KeysetRequest {
  readonly merchantId?: MerchantId
  readonly actorType?: ActorType
}

export interface AuditPage {
  readonly entries: ReadonlyArray<AuditEntry>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** Audit entry ids are the table's positive integers. */
const auditCursor = keysetCursor("[1-9]\\d{0,14}", Number)

/** One page of the log, newest first; the next page starts after its last entry, whatever was recorded since. */
export const listAudit = (request: AuditListRequest) =>
  Effect.map(
    keysetPage(auditCursor, request, ({ before, limit }) =>
      Effect.flatMap(AuditLog, (log) =>
        log.list({
          limit,
          ...(request.merchantId !== undefined ? { merchantId: request.merchantId } : {}),
          ...(request.actorType !== undefined ? { actorType: request.actorType } : {}),
          ...(request.since !== undefined ? { since: request.since } : {}),
          ...(request.until !== undefined ? { until: request.until } : {}),
          ...(before !== undefined ? { before } : {})
        }))),
    ({ nextCursor, rows }): AuditPage => ({ entries: rows, nextCursor })
  )
