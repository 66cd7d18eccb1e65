import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { RequestLogRepository, type RequestLog } from "../../core/request-logs/request-log.js"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { JsonText } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { bySchema, int64, literal, nullable, safeInt, table, text, typed } from "./table.js"
import { keysetAfter } from "./keyset.js"

const SignatureCheckJson = JsonText(Schema.Struct({ canonical: Schema.String, cause: Schema.String, explanation: Schema.String }))

export const requestLogTable = table("request_logs", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  request_id: text,
  method: text,
  path: text,
  status: typed(safeInt, "integer"),
  duration_ms: typed(safeInt, "integer"),
  idempotency_key: nullable(text),
  error_code: nullable(text),
  error_message: nullable(text),
  request_body: nullable(text),
  response_body: nullable(text),
  signature_check: nullable(bySchema(SignatureCheckJson, "text")),
  created_at: int64
})

const logs = tableRows(requestLogTable, (row): RequestLog => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  requestId: row.request_id,
  method: row.method,
  path: row.path,
  status: row.status,
  durationMs: row.duration_ms,
  idempotencyKey: row.idempotency_key,
  error: row.error_code === null ? null : { errorCode: row.error_code, message: row.error_message ?? "" },
  requestBody: row.request_body,
  responseBody: row.response_body,
  signatureCheck: row.signature_check,
  createdAt: Instant(row.created_at)
}))

export const layer = Layer.effect(
  RequestLogRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    RequestLogRepository.of({
      record: (entries) =>
        entries.length === 0 ? Effect.void : sql`INSERT INTO request_logs ${
          sql.insert(entries.map((entry) =>
            requestLogTable.values({
              id: entry.id,
              merchant_id: entry.merchantId,
              environment: entry.environment,
              request_id: entry.requestId,
              method: entry.method,
              path: entry.path,
              status: entry.status,
              duration_ms: entry.durationMs,
              idempotency_key: entry.idempotencyKey,
              error_code: entry.error?.errorCode ?? null,
              error_message: entry.error?.message ?? null,
              request_body: entry.requestBody,
              response_body: entry.responseBody,
              signature_check: entry.signatureCheck,
              created_at: entry.createdAt
            })
          ))
        }`.pipe(Effect.asVoid, dbCall),

      list: (query) =>
        sql`SELECT * FROM request_logs WHERE ${
          sql.and([
            sql`merchant_id = ${query.merchantId}`,
            sql`environment = ${query.environment}`,
            ...(query.status !== undefined ? [sql`status >= ${query.status.min}`, sql`status <= ${query.status.max}`] : []),
            // substr, not LIKE: a prefix holding % or _ means itself.
            ...(query.pathPrefix !== undefined ? [sql`substr(path, 1, ${[...query.pathPrefix].length}) = ${query.pathPrefix}`] : []),
            ...(query.since !== undefined ? [sql`created_at >= ${query.since}`] : []),
            ...(query.until !== undefined ? [sql`created_at < ${query.until}`] : []),
            ...(query.before !== undefined
              ? [keysetAfter(sql, "id", query.before)]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(logs.all), dbCall),

      find: (query) =>
        sql`SELECT * FROM request_logs WHERE merchant_id = ${query.merchantId} AND environment = ${query.environment} AND id = ${query.id}`.pipe(
          Effect.flatMap(logs.first),
          dbCall
        ),

      // The oldest first, a batch at a time: the sweep repeats while batches come back full.
      purgeBefore: (before, batchSize) =>
        sql`DELETE FROM request_logs WHERE id IN (
          SELECT id FROM request_logs WHERE created_at < ${before} ORDER BY created_at LIMIT ${batchSize}
        ) RETURNING id`.pipe(Effect.map((rows) => rows.length), dbCall)
    }))
)
