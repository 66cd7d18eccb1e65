import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { MailProgress, OutboxMail } from "./mail.js"

/** The mail outbox: rows written in the caller's transaction, sent later by the dispatcher. */
export class MailOutbox extends Context.Tag("merchant-payments/MailOutbox")<MailOutbox, {
  /** Call inside the change's transaction: the mail commits with it or not at all. */
  readonly enqueue: (mail: OutboxMail) => Effect.Effect<void, StorageError>
  /** Pending mail due by `now` (business time) whose lease, if any, lapsed by `leaseNow` (wall clock). */
  readonly listDue: (now: Instant, leaseNow: Instant, limit: number) => Effect.Effect<ReadonlyArray<OutboxMail>, StorageError>
  /**
   * Takes the row for this host until `leaseUntil`, if it is still due at `expected` and unleased:
   * one conditional write, so of two hosts only one ever sends it.
   */
  readonly claim: (id: string, expected: Instant, leaseNow: Instant, leaseUntil: Instant) => Effect.Effect<boolean, StorageError>
  /** An attempt's outcome; frees the lease. */
  readonly record: (id: string, progress: MailProgress) => Effect.Effect<void, StorageError>
  /** A merchant's mail of one environment, newest first (the Sandbox mail page). */
  readonly listForMerchant: (merchantId: MerchantId, environment: Environment, limit: number) => Effect.Effect<ReadonlyArray<OutboxMail>, StorageError>
  readonly find: (merchantId: MerchantId, id: string) => Effect.Effect<Option.Option<OutboxMail>, StorageError>
}>() {}
