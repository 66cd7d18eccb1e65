import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { type WebhookEndpoint, WebhookEndpointStatus } from "../../core/webhooks/webhook-endpoint.js"
import { WebhookEndpointRepository } from "../../core/webhooks/webhook-endpoint-repository.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, stringList, table, text } from "./table.js"

export const webhookEndpointsTable = table("webhook_endpoints", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  url: text,
  events: stringList,
  description: nullable(text),
  status: literal(WebhookEndpointStatus),
  created_at: int64,
  updated_at: int64
})

const endpoints = tableRows(webhookEndpointsTable, (row): WebhookEndpoint => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  url: row.url,
  events: row.events,
  description: row.description,
  status: row.status,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
}))

const rowOf = (endpoint: WebhookEndpoint) =>
  webhookEndpointsTable.values({
    id: endpoint.id,
    merchant_id: endpoint.merchantId,
    environment: endpoint.environment,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    status: endpoint.status,
    created_at: endpoint.createdAt,
    updated_at: endpoint.updatedAt
  })

export const layer = Layer.effect(
  WebhookEndpointRepository,
  Effect.map(SqlClient.SqlClient, (sql) => {
    const find = (merchantId: MerchantId, environment: Environment, id: string) =>
      sql`SELECT * FROM webhook_endpoints WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
        Effect.flatMap(endpoints.first)
      )
    return WebhookEndpointRepository.of({
      create: (endpoint, limit) =>
        sql.withTransaction(Effect.gen(function*() {
          // The merchant's row is the lock two concurrent adds queue on, so the count each sees is the
          // other's too and the limit holds (SQLite has one writer already).
          yield* sql.onDialectOrElse({
            pg: () => sql`SELECT id FROM merchants WHERE id = ${endpoint.merchantId} FOR UPDATE`,
            orElse: () => Effect.succeed([])
          })
          const [kept] = yield* sql<{ readonly kept: unknown }>`SELECT COUNT(*) AS kept FROM webhook_endpoints
            WHERE merchant_id = ${endpoint.merchantId} AND environment = ${endpoint.environment}`
          if (Number(kept?.kept ?? 0) >= limit) return false
          yield* sql`INSERT INTO webhook_endpoints ${sql.insert(rowOf(endpoint))}`
          return true
        })).pipe(dbCall),
      list: (merchantId, environment) =>
        sql`SELECT * FROM webhook_endpoints WHERE merchant_id = ${merchantId} AND environment = ${environment}
            ORDER BY created_at, id`.pipe(Effect.flatMap(endpoints.all), dbCall),
      find: (merchantId, environment, id) => find(merchantId, environment, id).pipe(dbCall),
      update: (merchantId, environment, id, changes) =>
        sql.withTransaction(Effect.gen(function*() {
          const found = yield* find(merchantId, environment, id)
          if (Option.isNone(found)) return Option.none<WebhookEndpoint>()
          const { at, ...given } = changes
          const row = rowOf({ ...found.value, ...given, updatedAt: at })
          return yield* sql`UPDATE webhook_endpoints SET url = ${row["url"]}, events = ${row["events"]}, description = ${row["description"]},
              status = ${row["status"]}, updated_at = ${row["updated_at"]}
            WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment} RETURNING *`.pipe(Effect.flatMap(endpoints.first))
        })).pipe(dbCall),
      remove: (merchantId, environment, id) =>
        sql`DELETE FROM webhook_endpoints WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment} RETURNING id`.pipe(
          Effect.map((rows) => rows.length === 1),
          dbCall
        )
    })
  })
)
