import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import * as Effect from "effect/Effect"
import type * as ParseResult from "effect/ParseResult"
import type { StorageError } from "../../core/shared/storage-error.js"
import { orStorageError } from "./storage-errors.js"

/**
 * Every repository call goes through here: integers come back exactly (better-sqlite3 reads
 * BIGINT as bigint instead of a lossy number) and driver errors become StorageError.
 */
export const dbCall = <A, E, R>(
  self: Effect.Effect<A, E | SqlError | ParseResult.ParseError, R>
): Effect.Effect<A, Exclude<E, SqlError | ParseResult.ParseError> | StorageError, R> =>
  orStorageError(Effect.provideService(self, SqlClient.SafeIntegers, true))
