import type * as SqlClient from "@effect/sql/SqlClient"
import * as Layer from "effect/Layer"
import { runMigrations } from "./migrations/index.js"
import { sqlStorageLayer } from "./storage-layer.js"

/**
 * Every storage port over a SqlClient the platform already has (its own pool, its own tracing),
 * migrated on start. SQLite through a foreign client gets no group commit and no pragmas: the
 * platform configured its connection itself.
 */
export const layer = <E>(client: Layer.Layer<SqlClient.SqlClient, E>) =>
  sqlStorageLayer.pipe(Layer.provideMerge(Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(client))))
