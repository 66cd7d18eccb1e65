import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { PortalSession } from "./portal-session.js"

export type NewPortalLink = Omit<PortalSession, "sessionHash" | "sessionExpiresAt" | "redeemedAt">

/** The customer portal's store: its links and sessions, by digest only. */
export class PortalSessionRepository extends Context.Tag("merchant-payments/PortalSessionRepository")<PortalSessionRepository, {
  readonly insert: (link: NewPortalLink) => Effect.Effect<void, StorageError>
  readonly findByLink: (linkHash: string) => Effect.Effect<Option.Option<PortalSession>, StorageError>
  /**
   * The one visit of a link: binds the session to it only while it is unvisited and unexpired at
   * `at`, as one conditional write, so two visits racing cannot both open a session. None otherwise.
   */
  readonly redeem: (
    linkHash: string,
    session: { readonly sessionHash: string; readonly sessionExpiresAt: Instant },
    at: Instant
  ) => Effect.Effect<Option.Option<PortalSession>, StorageError>
  readonly findBySession: (sessionHash: string) => Effect.Effect<Option.Option<PortalSession>, StorageError>
  /** Ids of the customer's subscriptions with the merchant in the environment (e-mail matched without case), newest first. */
  readonly customerSubscriptionIds: (
    merchantId: MerchantId,
    environment: Environment,
    customerEmail: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** Deletes links and sessions that can no longer be used (expired before `before`); how many. */
  readonly deleteExpired: (before: Instant) => Effect.Effect<number, StorageError>
}>() {}
