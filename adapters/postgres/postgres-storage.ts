import * as PgClient from "@effect/sql-pg/PgClient"
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { runMigrations } from "../sql/migrations/index.js"
import { sqlStorageLayer } from "../sql/storage-layer.js"
import * as DirectReader from "./direct-reader.js"
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

/**
 * The direct reader's pool beside the client's: half as many connections (at least one), since a
 * read holds its connection for one round trip where a transaction holds its own for several.
 */
const readerPoolSize = (poolSize: number) => Math.max(1, Math.ceil(poolSize / 2))

/**
 * Every storage port on PostgreSQL: the production and multi-instance store. Reads outside a
 * transaction go to a pool of their own, as prepared statements (direct-reader.ts).
 */
export const layer = (config: PostgresStorageConfig) =>
  sqlStorageLayer.pipe(
    Layer.provideMerge(DirectReader.layer({ url: config.url, poolSize: readerPoolSize(config.poolSize ?? DEFAULT_POOL_SIZE) })),
    Layer.provideMerge(clientLayer(config))
  )
