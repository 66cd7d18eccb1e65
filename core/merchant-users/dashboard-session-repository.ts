import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * A signed-in dashboard session, kept in the store so every host of it knows the session. Only the
 * SHA-256 of the cookie's token is stored: a leaked table opens no session.
 */
export interface DashboardSession {
  readonly idHash: string
  readonly userId: string
  readonly merchantId: MerchantId
  readonly createdAt: Instant
  readonly lastSeenAt: Instant
}

export class DashboardSessionRepository extends Context.Tag("merchant-payments/DashboardSessionRepository")<DashboardSessionRepository, {
  readonly create: (session: DashboardSession) => Effect.Effect<void, StorageError>
  readonly find: (idHash: string) => Effect.Effect<Option.Option<DashboardSession>, StorageError>
  readonly touch: (idHash: string, lastSeenAt: Instant) => Effect.Effect<void, StorageError>
  readonly delete: (idHash: string) => Effect.Effect<void, StorageError>
  /** Ends every session of the user; how many. */
  readonly deleteForUser: (userId: string) => Effect.Effect<number, StorageError>
  /** Deletes sessions last seen before `idleBefore` or created before `createdBefore`; how many. */
  readonly deleteExpired: (idleBefore: Instant, createdBefore: Instant) => Effect.Effect<number, StorageError>
}>() {}
