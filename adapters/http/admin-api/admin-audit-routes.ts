import * as Effect from "effect/Effect"
import type { AuditEntry } from "../../../core/audit/audit-entry.js"
import { listAudit } from "../../../core/audit/list-audit.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { toIsoString } from "../../../core/shared/instant.js"
import * as Parameters from "../contract/audit-parameters.js"
import * as Resources from "../contract/audit-resources.js"
import { endpoint } from "../endpoint/endpoint.js"

const entryJson = (entry: AuditEntry): typeof Resources.AuditEntry.Type => ({
  id: entry.id,
  created_at: toIsoString(entry.createdAt),
  actor_type: entry.actorType,
  actor_id: entry.actorId,
  source_address: entry.sourceAddress,
  operation: entry.operation,
  method: entry.method,
  route: entry.route,
  path_params: entry.pathParams,
  merchant_id: entry.merchantId,
  status: entry.status,
  fields: entry.fields,
  request_id: entry.requestId
})

const list = endpoint({
  method: "get",
  path: "/admin/v1/audit",
  operationId: "listAuditEntries",
  summary: "The audit log, newest first",
  description: "Every change made through the admin API (any method but GET) or a merchant's dashboard, done or refused, with who asked it, from where and when. " +
    "Pages follow next_cursor, which stays right while new entries arrive.",
  tag: "Admin: audit",
  security: "admin",
  query: Parameters.auditListQuery,
  success: { status: 200, description: "A page of entries.", schema: Resources.AuditPage },
  handler: ({ merchant_id: merchantId, actor_type: actorType, ...request }) => Effect.gen(function*() {
    const page = yield* listAudit({
      ...request,
      ...(merchantId !== undefined ? { merchantId: MerchantId(merchantId) } : {}),
      ...(actorType !== undefined ? { actorType } : {})
    })
    return { data: page.entries.map(entryJson), has_more: page.nextCursor !== null, next_cursor: page.nextCursor }
  })
})

/** docs/admin-api.md, the audit log. */
export const adminAuditEndpoints = [list] as const
