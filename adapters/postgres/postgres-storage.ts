import * as PgClient from "@effect/sql-pg/PgClient"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { runMigrations } from "../sql/migrations/index.js"
import { sqlStorageLayer } from "../sql/storage-layer.js"

/** Connections a host keeps to PostgreSQL unless told otherwise (DATABASE_POOL_SIZE, `poolSize`). */
export const DEFAULT_POOL_SIZE = 10

export interface PostgresStorageConfig {
  /** `postgres://user:password@host:port/database` */
  readonly url: string
  /** How many connections the pool may open (default 10). */
  readonly poolSize?: number
}

/** The PostgreSQL client alone (also the generic SqlClient), migrated. */
export const clientLayer = (config: PostgresStorageConfig) =>
  Layer.effectDiscard(runMigrations).pipe(
    Layer.provideMerge(
      PgClient.layer({
        url: Redacted.make(config.url),
        maxConnections: config.poolSize ?? DEFAULT_POOL_SIZE,
        applicationName: "merchant-payments"
      })
    )
  )

/** Every storage port on PostgreSQL: the production and multi-instance store. */
export const layer = (config: PostgresStorageConfig) => sqlStorageLayer.pipe(Layer.provideMerge(clientLayer(config)))
