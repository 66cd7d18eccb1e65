import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { type TestClock, type TestClockChange, TestClockRepository, TestClockStatus } from "../../core/subscriptions/test-clock.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"

export const testClocksTable = table("test_clocks", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  name: nullable(text),
  frozen_time: int64,
  status: literal(TestClockStatus),
  created_at: int64,
  updated_at: int64
})

const clocks = tableRows(testClocksTable, (row): TestClock => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  name: row.name,
  frozenTime: Instant(row.frozen_time),
  status: row.status,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
}))

const one = (query: Effect.Effect<ReadonlyArray<unknown>, SqlError>) => query.pipe(Effect.flatMap(clocks.first), dbCall)

const clockColumns = (change: TestClockChange) => testClocksTable.changes({
  ...(change.frozenTime !== undefined ? { frozen_time: change.frozenTime } : {}),
  ...(change.status !== undefined ? { status: change.status } : {})
})

export const layer = Layer.effect(
  TestClockRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    TestClockRepository.of({
      insert: (clock) =>
        Effect.flatMap(now, (at) =>
          sql`INSERT INTO test_clocks ${
            sql.insert(testClocksTable.values({
              id: clock.id,
              merchant_id: clock.merchantId,
              environment: clock.environment,
              name: clock.name,
              frozen_time: clock.frozenTime,
              status: clock.status,
              created_at: at,
              updated_at: at
            }))
          } RETURNING *`).pipe(Effect.flatMap(clocks.first), Effect.map(Option.getOrThrow), dbCall),
      findById: (id) => one(sql`SELECT * FROM test_clocks WHERE id = ${id}`),
      findScoped: (merchantId, environment, id) =>
        one(sql`SELECT * FROM test_clocks WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment}`),
      list: (merchantId, environment, limit) =>
        sql`SELECT * FROM test_clocks WHERE merchant_id = ${merchantId} AND environment = ${environment}
          ORDER BY created_at DESC, id DESC LIMIT ${Math.max(0, Math.trunc(limit))}`.pipe(Effect.flatMap(clocks.all), dbCall),
      update: (id, from, change, at) =>
        one(sql`UPDATE test_clocks SET ${sql.update({ ...clockColumns(change), updated_at: at })}
          WHERE id = ${id} AND ${sql.in("status", from)} RETURNING *`),
      delete: (id) => sql`DELETE FROM test_clocks WHERE id = ${id}`.pipe(Effect.asVoid, dbCall)
    }))
)
