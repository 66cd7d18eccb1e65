import * as SqlClient from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { StorageError } from "../../core/shared/storage-error.js"
import { dbCall } from "./query.js"
import { toStorageError } from "./storage-errors.js"

/**
 * A store's own reader beside its SqlClient: a connection that sees only committed data, run
 * straight on the driver. A read through @effect/sql costs several times the driver's own call
 * (its statement cache, connection permit, scope and placeholder span per statement: 16 µs
 * measured on SQLite in a small context and more in the kit's, against 3 µs raw), and reads far
 * outnumber writes. SQLite's answers at once (`all`, synchronous); PostgreSQL's answers later
 * (`query`, a callback). Stores without one (an in-memory SQLite file, a platform's own client)
 * read through the SqlClient.
 */
export type DirectReader = ImmediateReader | CallbackReader

export interface ImmediateReader {
  /** Every row `sql` (with the client's placeholders) returns for `params`; throws as the driver does. */
  readonly all: (sql: string, params: ReadonlyArray<unknown>) => ReadonlyArray<unknown>
}

export interface CallbackReader {
  /** Every row `sql` returns for `params`, handed to `done` with no error, or the driver's error. */
  readonly query: (
    sql: string,
    params: ReadonlyArray<unknown>,
    done: (error: unknown, rows: ReadonlyArray<unknown> | undefined) => void
  ) => void
}

export class DirectReads extends Context.Reference<DirectReads>()("merchant-payments/sql/DirectReads", {
  defaultValue: (): DirectReader | undefined => undefined
}) {}

const failed = (cause: unknown) => toStorageError(new SqlError({ cause, message: "Failed to execute statement" }))

/**
 * The rows of a read (a SELECT, never a write: the direct reader is a read-only connection). Outside
 * a transaction it goes to the store's direct reader where there is one; inside one, or without
 * one, through the SqlClient, so a transaction still reads its own writes. Failures are
 * StorageError either way.
 */
export const readRows = (reader: DirectReader | undefined) =>
<A extends object>(statement: Statement.Statement<A>): Effect.Effect<ReadonlyArray<A>, StorageError> => {
  if (reader === undefined) return dbCall(statement)
  return Effect.withFiberRuntime((fiber) => {
    if (Context.getOption(fiber.currentContext, SqlClient.TransactionConnection)._tag === "Some") return dbCall(statement)
    const [sql, params] = statement.compile()
    if ("query" in reader) {
      return Effect.async<ReadonlyArray<A>, StorageError>((resume) => {
        reader.query(sql, params, (error, rows) => {
          resume(error === undefined || error === null ? Effect.succeed((rows ?? []) as ReadonlyArray<A>) : Effect.fail(failed(error)))
        })
      })
    }
    try {
      return Effect.succeed(reader.all(sql, params) as ReadonlyArray<A>)
    } catch (cause) {
      return Effect.fail(failed(cause))
    }
  })
}
