import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { GatewayCodeTaken, GatewayType, gatewayCode, type Gateway } from "../../core/gateways/gateway.js"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { GatewayId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { JsonObject, SafeInt } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { bySchema, boolean, int64, literal, serialId, table, text } from "./table.js"

export const gatewaysTable = table("gateways", {
  id: serialId,
  plugin: text,
  name: text,
  code: text,
  method: text,
  currency: text,
  type: literal(GatewayType),
  active: boolean,
  config: bySchema(JsonObject, "text"),
  created_at: int64,
  updated_at: int64
})

const toGateway = (row: typeof gatewaysTable.Row.Type): Gateway => ({
  id: GatewayId(row.id),
  plugin: row.plugin,
  name: row.name,
  code: row.code,
  method: row.method,
  currency: row.currency,
  type: row.type,
  active: row.active,
  config: row.config,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

const gateways = tableRows(gatewaysTable, toGateway)

// Built once: a schema made per call cost more than the query it decoded.
const decodeSelection = Schema.decodeUnknown(Schema.Array(Schema.Struct({ gateway_id: SafeInt })))

export const layer = Layer.effect(
  GatewayRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return GatewayRepository.of({
      create: (gateway) =>
        Effect.gen(function*() {
          const at = yield* now
          const code = gatewayCode(gateway.method, gateway.currency)
          const rows = yield* sql`INSERT INTO gateways ${
            sql.insert(gatewaysTable.values({
              plugin: gateway.plugin,
              name: gateway.name,
              code,
              method: gateway.method,
              currency: gateway.currency,
              type: gateway.type,
              active: gateway.active,
              config: gateway.config,
              created_at: at,
              updated_at: at
            }))
          } ON CONFLICT (code) DO NOTHING RETURNING *`
          if (rows.length === 0) return yield* new GatewayCodeTaken({ code })
          return yield* gateways.one(rows)
        }).pipe(dbCall),
      findById: (id) => sql`SELECT * FROM gateways WHERE id = ${id}`.pipe(Effect.flatMap(gateways.first), dbCall),
      update: (id, patch) =>
        Effect.gen(function*() {
          const at = yield* now
          const changes = gatewaysTable.changes({
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.type !== undefined ? { type: patch.type } : {}),
            ...(patch.active !== undefined ? { active: patch.active } : {}),
            ...(patch.config !== undefined ? { config: patch.config } : {}),
            updated_at: at
          })
          return yield* gateways.first(yield* sql`UPDATE gateways SET ${sql.update(changes)} WHERE id = ${id} RETURNING *`)
        }).pipe(dbCall),
      list: sql`SELECT * FROM gateways ORDER BY id`.pipe(Effect.flatMap(gateways.all), dbCall),
      listByIds: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`SELECT * FROM gateways WHERE ${sql.in("id", [...ids])} ORDER BY id`.pipe(Effect.flatMap(gateways.all), dbCall),
      replaceMerchantSelection: (merchantId, gatewayIds) =>
        sql.withTransaction(
          Effect.gen(function*() {
            yield* sql`DELETE FROM merchant_gateways WHERE merchant_id = ${merchantId}`
            const distinct = [...new Set(gatewayIds)]
            if (distinct.length > 0) {
              yield* sql`INSERT INTO merchant_gateways ${
                sql.insert(distinct.map((gatewayId) => ({ merchant_id: merchantId, gateway_id: gatewayId })))
              }`
            }
          })
        ).pipe(dbCall),
      merchantSelection: (merchantId) =>
        sql`SELECT gateway_id FROM merchant_gateways WHERE merchant_id = ${merchantId} ORDER BY gateway_id`.pipe(
          Effect.flatMap(decodeSelection),
          Effect.map((rows) => rows.map((row) => GatewayId(row.gateway_id))),
          dbCall
        )
    })
  })
)
