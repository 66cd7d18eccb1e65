import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Transactor } from "../../core/shared/transactor.js"
import { sqlErrorToStorageError } from "./storage-errors.js"

/**
 * @effect/sql carries the open transaction in the fiber, so every repository call made inside
 * joins it, and a nested call becomes a savepoint. Any failure of `self` rolls everything back.
 */
export const layer = Layer.effect(
  Transactor,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Transactor.of({
      withTransaction: (self) => sqlErrorToStorageError(sql.withTransaction(self))
    }))
)
