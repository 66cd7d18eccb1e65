import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { SigningSecret } from "./delivery.js"

/**
 * An event as it happened, once, whatever targets it went to (its ipn_url, its endpoints, none at
 * all): what `GET /api/v1/events/stream` reads. `sequence` orders one merchant's events as they
 * committed, so a reader resumes after the last one it saw.
 */
export interface LoggedEvent {
  readonly sequence: number
  /** The event id a delivery of it carries (X-Event-Id, webhook-id). */
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly type: string
  readonly objectId: string
  /** The exact bytes a delivery sends, before the merchant's JSON spelling is applied. */
  readonly body: string
  readonly signingSecret: SigningSecret
  readonly createdAt: Instant
}

export type NewLoggedEvent = Omit<LoggedEvent, "sequence">

/** How long the log keeps an event: a developer's listener that was away this long replays what it missed. */
export const EVENT_LOG_RETENTION_SECONDS = 3 * 24 * 60 * 60

export class EventLog extends Context.Tag("merchant-payments/EventLog")<EventLog, {
  /**
   * Call inside the transaction of the change the event reports. Appends of one merchant are taken
   * one at a time until their transactions commit, so sequences become visible in order and a
   * reader that resumes after one never misses an earlier one committed late.
   */
  readonly append: (event: NewLoggedEvent) => Effect.Effect<void, StorageError>
  /** Several events, as `append` one after another in the order given, in one statement. */
  readonly appendAll: (events: ReadonlyArray<NewLoggedEvent>) => Effect.Effect<void, StorageError>
  /** The merchant's events in the environment after `afterSequence`, oldest first, at most `limit`. */
  readonly after: (query: {
    readonly merchantId: MerchantId
    readonly environment: Environment
    readonly afterSequence: number
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<LoggedEvent>, StorageError>
  /** The newest sequence of the merchant's events in the environment; 0 when it has none. */
  readonly latestSequence: (merchantId: MerchantId, environment: Environment) => Effect.Effect<number, StorageError>
  /** Removes up to `limit` events created before `before`, oldest first; how many went. */
  readonly purgeBefore: (before: Instant, limit: number) => Effect.Effect<number, StorageError>
}>() {}
