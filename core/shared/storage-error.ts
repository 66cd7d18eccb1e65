import * as Schema from "effect/Schema"

/**
 * The store failed for a reason that is not the caller's (connection lost, disk full, a bug).
 * Expected conflicts (a taken key, a balance too low) are never StorageErrors: each port returns
 * them as their own typed results so use cases can decide what they mean.
 *
 * `unavailable` marks an outage rather than a fault: the store could not be reached, dropped the
 * connection, was shutting down or too busy to take the call. Nothing was written (the transaction
 * did not commit), so the same call may succeed once the store is back; the edge says so (503).
 */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Unknown),
  unavailable: Schema.optional(Schema.Boolean)
}) {}
