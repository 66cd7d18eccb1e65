import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * A named lease kept in the store, so that hosts sharing one database never run the same periodic
 * job at once (the subscription scheduler "does not overlap runs"). The lease has an expiry rather
 * than a lock held on a connection, so a host that dies mid-run frees it by simply not renewing.
 */
export class SchedulerLease extends Context.Tag("merchant-payments/SchedulerLease")<SchedulerLease, {
  /** Takes lease `name` for `holder` until `expiresAt` when it is free, expired at `now`, or already
   *  held by `holder` (then extends it). true when the caller now holds it. Atomic across hosts. */
  readonly acquire: (name: string, holder: string, now: Instant, expiresAt: Instant) => Effect.Effect<boolean, StorageError>
  /** Gives the lease up if `holder` holds it; nothing otherwise. */
  readonly release: (name: string, holder: string) => Effect.Effect<void, StorageError>
}>() {}
