import * as SqlClient from "@effect/sql/SqlClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { StoreHealth } from "../../core/shared/store-health.js"
import { pendingMigrations } from "./migrations/index.js"
import { dbCall } from "./query.js"

/** The disk under a store this host can see (a SQLite file's): provided by that store's adapter. */
export class StoreDisk extends Context.Tag("merchant-payments/sql/StoreDisk")<StoreDisk, {
  readonly full: Effect.Effect<boolean>
}>() {}

export const layer = Layer.effect(
  StoreHealth,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const disk = yield* Effect.serviceOption(StoreDisk)
    return StoreHealth.of({
      ping: sql`SELECT 1 AS ok`.pipe(Effect.asVoid, dbCall),
      pendingMigrations: pendingMigrations.pipe(Effect.provideService(SqlClient.SqlClient, sql), dbCall),
      diskFull: Option.match(disk, { onNone: () => Effect.succeed(false), onSome: (disk) => disk.full })
    })
  })
)
