import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./storage-error.js"

/**
 * The transaction boundary over every repository: all port calls made inside `withTransaction`
 * commit together or not at all. Nested calls join the outer transaction.
 */
export class Transactor extends Context.Tag("merchant-payments/Transactor")<Transactor, {
  readonly withTransaction: <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | StorageError, R>
}>() {}
