import { Effect } from "effect"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import type { AuditEntry } from "./audit-entry.js"
import { decodeAuditCursor, encodeAuditCursor } from "./audit-cursor.js"
import { AuditLog } from "./audit-log.js"

export const DEFAULT_AUDIT_LIMIT = 50
export const MAX_AUDIT_LIMIT = 200

export interface AuditListRequest {
  readonly merchantId?: MerchantId
  readonly since?: Instant
  readonly until?: Instant
  /** From a previous page's `nextCursor`. */
  readonly cursor?: string
  readonly limit: number
}

export interface AuditPage {
  readonly entries: ReadonlyArray<AuditEntry>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** One page of the log, newest first; the next page starts after its last entry, whatever was recorded since. */
export const listAudit = (request: AuditListRequest) =>
  Effect.gen(function*() {
    const before = request.cursor === undefined ? undefined : decodeAuditCursor(request.cursor)
    if (request.cursor !== undefined && before === undefined) {
      return yield* ValidationFailed.field("cursor", "The cursor must be a next_cursor this API gave.")
    }
    if (request.since !== undefined && request.until !== undefined && request.until <= request.since) {
      return yield* ValidationFailed.field("until", "The until time must be after since.")
    }
    // One more than asked tells whether a next page exists without counting.
    const found = yield* (yield* AuditLog).list({
      limit: request.limit + 1,
      ...(request.merchantId !== undefined ? { merchantId: request.merchantId } : {}),
      ...(request.since !== undefined ? { since: request.since } : {}),
      ...(request.until !== undefined ? { until: request.until } : {}),
      ...(before !== undefined ? { before } : {})
    })
    const entries = found.slice(0, request.limit)
    const last = entries[entries.length - 1]
    const page: AuditPage = {
      entries,
      nextCursor: found.length > request.limit && last !== undefined ? encodeAuditCursor({ createdAt: last.createdAt, id: last.id }) : null
    }
    return page
  })
