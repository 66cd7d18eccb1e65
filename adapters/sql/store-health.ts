import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { StoreHealth } from "../../core/shared/store-health.js"
import { pendingMigrations } from "./migrations/index.js"
import { dbCall } from "./query.js"

export const layer = Layer.effect(
  StoreHealth,
  Effect.map(SqlClient.SqlClient, (sql) =>
    StoreHealth.of({
      ping: sql`SELECT 1 AS ok`.pipe(Effect.asVoid, dbCall),
      pendingMigrations: pendingMigrations.pipe(Effect.provideService(SqlClient.SqlClient, sql), dbCall)
    }))
)
