import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "./storage-error.js"

/** Whether the store answers, and whether it has the schema this code needs: what a load balancer asks. */
export class StoreHealth extends Context.Tag("merchant-payments/StoreHealth")<StoreHealth, {
  readonly ping: Effect.Effect<void, StorageError>
  /** The migrations this code carries that the store has not applied, by name; empty when current. */
  readonly pendingMigrations: Effect.Effect<ReadonlyArray<string>, StorageError>
  /**
   * Whether the store's disk is too full to take a write, as far as this host can see: a store that
   * answers reads but refuses every write must get no traffic. Always false where the host cannot
   * see the disk (PostgreSQL's is the server's; a full one there answers 503 call by call).
   */
  readonly diskFull: Effect.Effect<boolean>
}>() {}
