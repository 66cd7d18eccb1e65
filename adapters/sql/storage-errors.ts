import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import { StorageError } from "../../core/shared/storage-error.js"
import { isDiskFull, isStoreOutage } from "./store-outage.js"

/**
 * Driver and decoding failures become StorageError at the adapter boundary, so core never sees
 * @effect/sql types. The driver error is kept as the cause for logs; it never holds secrets because
 * every value reaches the database as a bound parameter, not as SQL text. An outage of the store
 * (see store-outage.ts) is marked as such, so the edge can tell the caller to come back.
 */
/** A stored row its decoder refused: never guessed at, always the operator's to see. */
export const undecodableRow = (detail: string, cause: unknown): StorageError =>
  new StorageError({ message: `stored row did not decode: ${detail}`, cause })

export const toStorageError = (error: SqlError | ParseResult.ParseError): StorageError => {
  if (error._tag === "ParseError") return undecodableRow(error.message, error)
  if (!isStoreOutage(error.cause)) return new StorageError({ message: error.message, cause: error })
  // The driver's own words say which outage it was (refused, terminated, busy) for the log; a full
  // disk is named as such whatever the driver calls it, for it is the operator's to free.
  const words = error.cause instanceof Error ? error.cause.message : ""
  const reason = isDiskFull(error.cause) ? ` (disk is full: ${words})` : words === "" ? "" : ` (${words})`
  return new StorageError({ message: `${error.message}${reason}`, cause: error, unavailable: true })
}

/**
 * @effect/sql makes a failed COMMIT or ROLLBACK a defect. When the store went away under it that is
 * an outage like any other (the transaction did not take, or its end is unknown and the retry of an
 * idempotent call settles it), so it becomes the same StorageError; any other defect stays one.
 */
const outageDefectsAsStorageError = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E | StorageError, R> =>
  Effect.catchSomeDefect(self, (defect) =>
    isSqlError(defect) && isStoreOutage(defect.cause) ? Option.some(Effect.fail(toStorageError(defect))) : Option.none())

export const orStorageError = <A, E, R>(
  self: Effect.Effect<A, E | SqlError | ParseResult.ParseError, R>
): Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError> | StorageError, R> =>
  Effect.mapError(self, (error) =>
    isAdapterError(error) ? toStorageError(error) : (error as Exclude<E, SqlError | ParseResult.ParseError>)).pipe(outageDefectsAsStorageError)

const isAdapterError = (error: unknown): error is SqlError | ParseResult.ParseError =>
  typeof error === "object" && error !== null && "_tag" in error &&
  (error._tag === "SqlError" || error._tag === "ParseError")

/** Like orStorageError, but leaves every error except SqlError as it is (for the transaction boundary). */
export const sqlErrorToStorageError = <A, E, R>(
  self: Effect.Effect<A, E | SqlError, R>
): Effect.Effect<A, Exclude<E, SqlError> | StorageError, R> =>
  Effect.mapError(self, (error) =>
    isSqlError(error) ? toStorageError(error) : (error as Exclude<E, SqlError>)).pipe(outageDefectsAsStorageError)

const isSqlError = (error: unknown): error is SqlError =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "SqlError"
