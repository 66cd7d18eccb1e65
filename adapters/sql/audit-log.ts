import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { AuditEntry } from "../../core/audit/audit-entry.js"
import { AuditLog } from "../../core/audit/audit-log.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { JsonText } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { bySchema, int64, literal, nullable, safeInt, serialId, stringList, table, text, typed } from "./table.js"
import { keysetAfter } from "./keyset.js"

const ActorTypeWord = Schema.Literal("admin_token", "merchant_user")

export const auditLogTable = table("audit_log", {
  id: serialId,
  created_at: int64,
  actor_type: literal(ActorTypeWord),
  actor_id: text,
  source_address: text,
  operation: text,
  method: text,
  route: text,
  path_params: bySchema(JsonText(Schema.Record({ key: Schema.String, value: Schema.String })), "text"),
  merchant_id: nullable(safeInt),
  status: typed(safeInt, "integer"),
  fields: stringList,
  request_id: nullable(text)
})

const entries = tableRows(auditLogTable, (row): AuditEntry => ({
  id: row.id,
  createdAt: Instant(row.created_at),
  actorType: row.actor_type,
  actorId: row.actor_id,
  sourceAddress: row.source_address,
  operation: row.operation,
  method: row.method,
  route: row.route,
  pathParams: row.path_params,
  merchantId: row.merchant_id === null ? null : MerchantId(row.merchant_id),
  status: row.status,
  fields: row.fields,
  requestId: row.request_id
}))

export const layer = Layer.effect(
  AuditLog,
  Effect.map(SqlClient.SqlClient, (sql) =>
    AuditLog.of({
      record: (entry, at) =>
        sql`INSERT INTO audit_log ${
          sql.insert(auditLogTable.values({
            created_at: at,
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
          }))
        } RETURNING *`.pipe(Effect.flatMap(entries.one), dbCall),

      list: (query) =>
        sql`SELECT * FROM audit_log WHERE ${
          sql.and([
            ...(query.merchantId !== undefined ? [sql`merchant_id = ${query.merchantId}`] : []),
            ...(query.actorType !== undefined ? [sql`actor_type = ${query.actorType}`] : []),
            ...(query.since !== undefined ? [sql`created_at >= ${query.since}`] : []),
            ...(query.until !== undefined ? [sql`created_at < ${query.until}`] : []),
            ...(query.before !== undefined
              ? [keysetAfter(sql, "id", query.before)]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(entries.all), dbCall)
    }))
)
