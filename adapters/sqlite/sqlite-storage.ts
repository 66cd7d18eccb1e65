import { SqlClient } from "@effect/sql"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { Effect, Layer } from "effect"
import { runMigrations } from "../sql/migrations/index.js"
import { sqlStorageLayer } from "../sql/storage-layer.js"
import * as GroupCommit from "./group-commit.js"

export interface SqliteStorageConfig {
  /** A file path, or ":memory:" for a throw-away store. */
  readonly filename: string
}

/**
 * Durability settings applied on open: WAL for readers beside the writer, FULL sync so a
 * committed payment survives power loss, foreign keys enforced, and a busy timeout so another
 * process holding the file (a `migrate` run) makes us wait instead of fail.
 */
const pragmas = Layer.effectDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe("PRAGMA foreign_keys = ON")
    yield* sql.unsafe("PRAGMA busy_timeout = 5000")
    yield* sql.unsafe("PRAGMA synchronous = FULL")
  })
)

/** The SQLite client alone (also the generic SqlClient), configured and migrated. */
export const clientLayer = (config: SqliteStorageConfig) =>
  Layer.effectDiscard(runMigrations).pipe(
    Layer.provideMerge(pragmas),
    Layer.provideMerge(SqliteClient.layer({ filename: config.filename }))
  )

/**
 * Every storage port on one SQLite file: the embedded default. Its SqlClient joins concurrent
 * transactions into one durable commit (group commit), for every repository alike.
 */
export const layer = (config: SqliteStorageConfig) =>
  sqlStorageLayer.pipe(Layer.provideMerge(GroupCommit.layer.pipe(Layer.provide(clientLayer(config)))))
