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
 * straight on the driver. On SQLite a read through @effect/sql costs several times the driver's
 * own call (its statement cache, connection permit, scope and placeholder span per statement: 16 µs
 * measured in a small context and more in the kit's, against 3 µs raw), and reads far outnumber writes. Stores without
 * one (PostgreSQL, an in-memory SQLite file, a platform's own client) read through the SqlClient.
 */
export interface DirectReader {
  /** Every row `sql` (with `?` placeholders) returns for `params`; throws as the driver does. */
  readonly all: (sql: string, params: ReadonlyArray<unknown>) => ReadonlyArray<unknown>
}

export class DirectReads extends Context.Reference<DirectReads>()("merchant-payments/sql/DirectReads", {
  defaultValue: (): DirectReader | undefined => undefined
}) {}

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
    try {
      return Effect.succeed(reader.all(sql, params) as ReadonlyArray<A>)
    } catch (cause) {
      return Effect.fail(toStorageError(new SqlError({ cause, message: "Failed to execute statement" })))
    }
  })
}
