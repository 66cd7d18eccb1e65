import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./storage-error.js"

/** Whether the store answers, and whether it has the schema this code needs: what a load balancer asks. */
export class StoreHealth extends Context.Tag("merchant-payments/StoreHealth")<StoreHealth, {
  readonly ping: Effect.Effect<void, StorageError>
  /** The migrations this code carries that the store has not applied, by name; empty when current. */
  readonly pendingMigrations: Effect.Effect<ReadonlyArray<string>, StorageError>
}>() {}
