import { Context, type Effect } from "effect"
import type { StorageError } from "./storage-error.js"

/** Whether the store answers at all: what a load balancer's health check needs to know. */
export class StoreHealth extends Context.Tag("merchant-payments/StoreHealth")<StoreHealth, {
  readonly ping: Effect.Effect<void, StorageError>
}>() {}
