import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { StorageError } from "../../core/shared/storage-error.js"
import { toStorageError, undecodableRow } from "./storage-errors.js"
import type { Columns, RowOf, Table } from "./table.js"

/** `all`, `first` and `one` over a function that decodes every row or says why not. */
const mapped = <A>(decodeAll: (rows: ReadonlyArray<unknown>) => Either.Either<Array<A>, StorageError>) => {
  const all = (rows: ReadonlyArray<unknown>): Effect.Effect<Array<A>, StorageError> => {
    const decoded = decodeAll(rows)
    return Either.isRight(decoded) ? Effect.succeed(decoded.right) : Effect.fail(decoded.left)
  }
  const first = (rows: ReadonlyArray<unknown>) => Effect.map(all(rows.slice(0, 1)), (items) => Option.fromNullable(items[0]))
  return {
    all,
    /** The first row, if any: lookups by key, and conditional updates that may match nothing. */
    first,
    /** The row a statement must have returned, such as an INSERT ... RETURNING that did insert. */
    one: (rows: ReadonlyArray<unknown>) =>
      Effect.flatMap(first(rows), Option.match({
        onNone: () => Effect.dieMessage("the statement returned no row where one was certain"),
        onSome: Effect.succeed
      }))
  }
}

/**
 * Decodes what a statement returned with a row schema and maps it to the domain type: the one
 * piece of plumbing every repository needs, so each only states its row shape and its mapping. The
 * decoder is compiled once and run synchronously; a row that does not decode is a StorageError.
 */
export const rowMapper = <Row, Encoded, A>(row: Schema.Schema<Row, Encoded>, toDomain: (row: Row) => A) => {
  const decodeAll = Schema.decodeUnknownEither(Schema.Array(row))
  return mapped((rows) => Either.match(decodeAll(rows), {
    onLeft: (error) => Either.left(toStorageError(error)),
    onRight: (decoded) => Either.right(decoded.map(toDomain))
  }))
}

/**
 * The same over a hand-written decoder (columns.ts's plain rules), for rows on a hot read path: a
 * Schema decode of a wide row costs several times the read itself. The decoder throws on a value
 * its column cannot hold.
 */
export const rowDecoder = <A>(decode: (row: Readonly<Record<string, unknown>>) => A) =>
  mapped((rows) => {
    try {
      return Either.right(rows.map((row) => decode(row as Readonly<Record<string, unknown>>)))
    } catch (error) {
      return Either.left(undecodableRow(error instanceof Error ? error.message : String(error), error))
    }
  })

/** The rows of a declared table (table.ts), read by its reader and mapped to the domain. */
export const tableRows = <C extends Columns, A>(table: Table<C>, toDomain: (row: RowOf<C>) => A) =>
  rowDecoder((row) => toDomain(table.read(row)))
