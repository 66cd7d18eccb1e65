import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/**
 * Decodes what a statement returned with a row schema and maps it to the domain type: the one
 * piece of plumbing every repository needs, so each only states its row shape and its mapping.
 */
export const rowMapper = <Row, Encoded, A>(row: Schema.Schema<Row, Encoded>, toDomain: (row: Row) => A) => {
  const decodeAll = Schema.decodeUnknown(Schema.Array(row))
  const all = (rows: ReadonlyArray<unknown>) => Effect.map(decodeAll(rows), (decoded) => decoded.map(toDomain))
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
