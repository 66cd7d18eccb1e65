import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import Pg from "pg"
import { type CallbackReader, DirectReads } from "../sql/direct-reads.js"

/** Statement names kept per text; the kit's reads are a few dozen texts, lists of ids add a few more. */
const PREPARED_LIMIT = 200

/**
 * PostgreSQL answers this when a prepared statement's result changed shape under it (a column
 * added by a newer host's migration): the statement is read once more unprepared, and its text
 * prepared afresh under a new name on its next read.
 */
const CACHED_PLAN_CHANGED = "0A000"

const reader = (pool: Pg.Pool): CallbackReader => {
  const names = new Map<string, string>()
  let counter = 0
  const nameFor = (sql: string) => {
    let name = names.get(sql)
    if (name === undefined) {
      // A name is never reused for another text: a connection that prepared it keeps its text.
      name = `mp_read_${(counter += 1)}`
      if (names.size >= PREPARED_LIMIT) names.delete(names.keys().next().value as string)
      names.set(sql, name)
    }
    return name
  }
  return {
    query: (sql, params, done) => {
      const values = params as Array<unknown>
      pool.query({ name: nameFor(sql), text: sql, values }, (error, result) => {
        if (error === undefined || error === null) return done(undefined, result.rows)
        if ((error as { code?: unknown }).code !== CACHED_PLAN_CHANGED) return done(error, undefined)
        names.delete(sql)
        pool.query({ text: sql, values }, (again, result) => (again ? done(again, undefined) : done(undefined, result.rows)))
      })
    }
  }
}

export interface DirectReaderConfig {
  readonly url: string
  /** Connections of the reader's own pool. */
  readonly poolSize: number
}

/**
 * PostgreSQL's direct reader (see direct-reads.ts): a pool of its own, opened once the client has
 * migrated the database, each read a prepared statement (parsed and planned once per connection).
 * Outside a transaction a read through the client sees what is committed when it runs, and so does
 * this one: READ COMMITTED, one statement. Rows come back as node-postgres gives them to the client
 * (BIGINT as text), so the same row mappers read them.
 */
export const layer = (config: DirectReaderConfig) =>
  Layer.scoped(
    DirectReads,
    Effect.gen(function*() {
      yield* SqlClient.SqlClient
      const pool = yield* Effect.acquireRelease(
        Effect.tryPromise({
          try: async () => {
            const pool = new Pg.Pool({ connectionString: config.url, max: config.poolSize, application_name: "merchant-payments reader" })
            // A connection that fails while idle is dropped by the pool; a read on it fails alone.
            pool.on("error", () => {})
            await pool.query("SELECT 1")
            return pool
          },
          catch: (cause) => new SqlError({ cause, message: "Failed to open the PostgreSQL reader" })
        }),
        (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
      )
      return reader(pool)
    })
  )
