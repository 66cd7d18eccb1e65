import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import Database from "better-sqlite3"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type DirectReader, DirectReads } from "../sql/direct-reads.js"

/** Statements kept prepared; the kit's reads are a few dozen texts, lists of ids add a few more. */
const PREPARED_LIMIT = 200

/** Only a file has a second connection that sees the same data: `:memory:` is a store of its own. */
const isFile = (filename: string) => filename !== "" && filename !== ":memory:" && !filename.startsWith("file:")

const reader = (db: Database.Database): DirectReader => {
  const prepared = new Map<string, Database.Statement>()
  return {
    all: (sql, params) => {
      let statement = prepared.get(sql)
      if (statement === undefined) {
        statement = db.prepare(sql)
        // The oldest out first: a bounded cache, never a growing one.
        if (prepared.size >= PREPARED_LIMIT) prepared.delete(prepared.keys().next().value as string)
        prepared.set(sql, statement)
      }
      return statement.all(...params)
    }
  }
}

/**
 * SQLite's direct reader (see direct-reads.ts): a second, read-only connection on the same file,
 * opened once the client has migrated it. In WAL mode it sees every committed transaction and
 * nothing of one still open, so a read never shows a row a group commit has not made durable.
 * Integers come back as bigint, as the client returns them with SafeIntegers.
 */
export const layer = (filename: string) =>
  Layer.scoped(
    DirectReads,
    Effect.gen(function*() {
      yield* SqlClient.SqlClient
      if (!isFile(filename)) return undefined
      const db = yield* Effect.acquireRelease(
        Effect.try({
          try: () => {
            const db = new Database(filename, { readonly: true, fileMustExist: true })
            db.pragma("busy_timeout = 5000")
            db.defaultSafeIntegers(true)
            return db
          },
          catch: (cause) => new SqlError({ cause, message: "Failed to open the SQLite reader" })
        }),
        (db) => Effect.sync(() => db.close())
      )
      return reader(db)
    })
  )
