import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { runMigrations } from "../sql/migrations/index.js"
import { sqlStorageLayer } from "../sql/storage-layer.js"
import { withRetriedRaces } from "./serialization-retry.js"

/** Connections a host keeps to PostgreSQL unless told otherwise (DATABASE_POOL_SIZE, `poolSize`). */
export const DEFAULT_POOL_SIZE = 10

export interface PostgresStorageConfig {
  /** `postgres://user:password@host:port/database` */
  readonly url: string
  /** How many connections the pool may open (default 10). */
  readonly poolSize?: number
}

type PgClientLayer = Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError>

/** The pool a host opens from its config. */
export const pgClientLayer = (config: PostgresStorageConfig, options?: Partial<PgClient.PgClientConfig>): PgClientLayer =>
  PgClient.layer({
    url: Redacted.make(config.url),
    maxConnections: config.poolSize ?? DEFAULT_POOL_SIZE,
    applicationName: "merchant-payments",
    ...options
  })

/** A PgClient and, over it, the generic SqlClient that runs a transaction again when it loses a race; migrated. */
export const migratedClient = (client: PgClientLayer) =>
  Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(withRetriedRaces.pipe(Layer.provideMerge(client))))

/** The PostgreSQL client alone (also the generic SqlClient), migrated. */
export const clientLayer = (config: PostgresStorageConfig) => migratedClient(pgClientLayer(config))

/** Every storage port over a PgClient opened elsewhere (a test's own socket, say), as `layer` wires its own. */
export const layerFromClient = (client: PgClientLayer) => sqlStorageLayer.pipe(Layer.provideMerge(migratedClient(client)))

/** Every storage port on PostgreSQL: the production and multi-instance store. */
export const layer = (config: PostgresStorageConfig) => layerFromClient(pgClientLayer(config))
