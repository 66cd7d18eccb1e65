import type { SqlError } from "@effect/sql/SqlError"
import { Effect, type ParseResult } from "effect"
import { StorageError } from "../../core/shared/storage-error.js"

/**
 * Driver and decoding failures become StorageError at the adapter boundary, so core never sees
 * @effect/sql types. The driver error is kept as the cause for logs; it never holds secrets because
 * every value reaches the database as a bound parameter, not as SQL text.
 */
export const toStorageError = (error: SqlError | ParseResult.ParseError): StorageError =>
  new StorageError({
    message: error._tag === "ParseError" ? `stored row did not decode: ${error.message}` : error.message,
    cause: error
  })

export const orStorageError = <A, E, R>(
  self: Effect.Effect<A, E | SqlError | ParseResult.ParseError, R>
): Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError> | StorageError, R> =>
  Effect.mapError(self, (error) =>
    isAdapterError(error) ? toStorageError(error) : (error as Exclude<E, SqlError | ParseResult.ParseError>))

const isAdapterError = (error: unknown): error is SqlError | ParseResult.ParseError =>
  typeof error === "object" && error !== null && "_tag" in error &&
  (error._tag === "SqlError" || error._tag === "ParseError")

/** Like orStorageError, but leaves every error except SqlError as it is (for the transaction boundary). */
export const sqlErrorToStorageError = <A, E, R>(
  self: Effect.Effect<A, E | SqlError, R>
): Effect.Effect<A, Exclude<E, SqlError> | StorageError, R> =>
  Effect.mapError(self, (error) =>
    isSqlError(error) ? toStorageError(error) : (error as Exclude<E, SqlError>))

const isSqlError = (error: unknown): error is SqlError =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "SqlError"
