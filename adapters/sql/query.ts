import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, type ParseResult } from "effect"
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
