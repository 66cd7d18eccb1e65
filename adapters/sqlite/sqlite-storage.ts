import { mkdirSync } from "node:fs"
import { dirname, resolve } from "node:path"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { runMigrations } from "../sql/migrations/index.js"
import { sqlStorageLayer } from "../sql/storage-layer.js"
import * as DirectReader from "./direct-reader.js"
import * as DiskSpace from "./disk-space.js"
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

/**
 * The file's folder, made when missing (`sqlite:./data/payments.db` on a first start), as the
 * standalone host does for its DATA_DIR: SQLite itself would refuse with a bare TypeError.
 */
const folderFor = (filename: string) =>
  Layer.effectDiscard(Effect.sync(() => {
    if (filename !== ":memory:" && !filename.startsWith("file:")) mkdirSync(dirname(resolve(filename)), { recursive: true })
  }))

/** The SQLite client alone (also the generic SqlClient), configured and migrated. */
export const clientLayer = (config: SqliteStorageConfig) =>
  Layer.effectDiscard(runMigrations).pipe(
    Layer.provideMerge(pragmas),
    Layer.provideMerge(SqliteClient.layer({ filename: config.filename })),
    Layer.provide(folderFor(config.filename))
  )

/**
 * Every storage port on one SQLite file: the embedded default. Its SqlClient joins concurrent
 * transactions into one durable commit (group commit), for every repository alike, and reads
 * outside a transaction go to a read-only connection of their own (direct-reader.ts). Readiness
 * also asks how full the file's disk is (disk-space.ts).
 */
export const layer = (config: SqliteStorageConfig) =>
  sqlStorageLayer.pipe(
    Layer.provideMerge(Layer.mergeAll(GroupCommit.layer, DirectReader.layer(config.filename), DiskSpace.layer(config.filename))),
    Layer.provide(clientLayer(config))
  )
