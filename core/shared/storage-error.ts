import { Schema } from "effect"

/**
 * The store failed for a reason that is not the caller's (connection lost, disk full, a bug).
 * Expected conflicts (a taken key, a balance too low) are never StorageErrors: each port returns
 * them as their own typed results so use cases can decide what they mean.
 */
export class StorageError extends Schema.TaggedError<StorageError>()("StorageError", {
  message: Schema.String,
  cause: Schema.optional(Schema.Unknown)
}) {}
