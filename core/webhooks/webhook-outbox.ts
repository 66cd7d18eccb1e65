import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { AttemptReport, DeliveryAttempt, DeliveryLane, DeliveryStatus, FailingTarget, NewDelivery, WebhookDelivery } from "./delivery.js"

export class WebhookOutbox extends Context.Tag("merchant-payments/WebhookOutbox")<WebhookOutbox, {
  /** Call inside the transaction of the state change the event reports, so neither exists without the other. */
  readonly enqueue: (delivery: NewDelivery) => Effect.Effect<WebhookDelivery, StorageError>
  /**
   * Several deliveries, as `enqueue` one after another in the order given would queue and number
   * them (an object's sequence follows that order), in fewer round trips; answered in that order.
   */
  readonly enqueueAll: (deliveries: ReadonlyArray<NewDelivery>) => Effect.Effect<ReadonlyArray<WebhookDelivery>, StorageError>
  /**
   * Leases up to `limit` pending deliveries due at `now` (business time) to `worker` until
   * `leaseUntil`. A row is leased to one worker at a time; an expired lease (a crashed worker) makes
   * it claimable again. Leases are judged on `leaseNow`, the wall clock, never on business time.
   * Fair: no target (`deliveryTarget` of the URL) gets more than `perTarget` attempts in flight,
   * counting every worker's live leases, and no merchant more than `perMerchant` of this worker's
   * live leases in `lane`, so the oldest due rows of other targets and merchants are taken instead.
   * Only deliveries of the lane's targets are claimed: the slow lane's are those `noteTargetOutcome`
   * last found slow, the fast lane's all others.
   */
  readonly claimDue: (claim: {
    readonly worker: string
    readonly now: Instant
    readonly leaseNow: Instant
    readonly leaseUntil: Instant
    readonly limit: number
    readonly lane: DeliveryLane
    readonly perTarget: number
    readonly perMerchant: number
  }) => Effect.Effect<ReadonlyArray<WebhookDelivery>, StorageError>
  /** Records an attempt and releases the lease; false when the worker no longer held it. */
  readonly recordAttempt: (report: AttemptReport) => Effect.Effect<boolean, StorageError>
  /**
   * `recordAttempt` for several attempts (each of a delivery of its own), all or none, in a few
   * statements; answered in the order given. A dispatcher records what finished meanwhile in one go.
   */
  readonly recordAttempts: (reports: ReadonlyArray<AttemptReport>) => Effect.Effect<ReadonlyArray<boolean>, StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<WebhookDelivery>, StorageError>
  /** Deliveries waiting for an attempt (pending, paused targets' included), every merchant's: the queue's depth. */
  readonly pendingCount: Effect.Effect<number, StorageError>
  /** Newest first. */
  readonly list: (filter: {
    readonly merchantId?: MerchantId
    readonly status?: DeliveryStatus
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<WebhookDelivery>, StorageError>
  readonly attempts: (deliveryId: string) => Effect.Effect<ReadonlyArray<DeliveryAttempt>, StorageError>
  /**
   * Makes a delivery pending again, due at `now`, with the same body and event id and a fresh
   * attempt budget. None when it does not exist or a worker holds a lease live at `leaseNow` (wall clock).
   */
  readonly requeue: (id: string, now: Instant, leaseNow: Instant) => Effect.Effect<Option.Option<WebhookDelivery>, StorageError>
  /**
   * Notes how an attempt to its delivery's target went: a success forgets the target's failures; a
   * failure starts or continues them and, when they have lasted `pauseAfterSeconds` (business time),
   * pauses the target: its pending deliveries are no longer claimed. True when this call paused it.
   * A `slow` attempt (one that held its sender long, a timeout above all) moves the target, for every
   * merchant, to the slow lane; an attempt that was not moves it back.
   */
  readonly noteTargetOutcome: (outcome: TargetOutcome) => Effect.Effect<boolean, StorageError>
  /** `noteTargetOutcome` for several attempts, noted in the order given; answered in that order. */
  readonly noteTargetOutcomes: (outcomes: ReadonlyArray<TargetOutcome>) => Effect.Effect<ReadonlyArray<boolean>, StorageError>
  /** Targets failing now, paused or not, of one merchant and environment when asked; oldest failure first. */
  readonly failingTargets: (filter: {
    readonly merchantId?: MerchantId
    readonly environment?: Environment
  }) => Effect.Effect<ReadonlyArray<FailingTarget>, StorageError>
  /** How many of the merchant's events in the environment failed for good: what a recover would queue again. */
  readonly failedCount: (merchantId: MerchantId, environment: Environment) => Effect.Effect<number, StorageError>
  /** Forgets the failures of the merchant's targets in the environment, unpausing them. How many were paused. */
  readonly resumeTargets: (merchantId: MerchantId, environment: Environment) => Effect.Effect<number, StorageError>
  /**
   * One merchant's events in one environment, newest first (created_at, then id, descending), after
   * `before` when given: a keyset, so a page never shifts while new events arrive.
   */
  readonly events: (query: EventQuery) => Effect.Effect<ReadonlyArray<WebhookDelivery>, StorageError>
  /**
   * Makes every failed event of the merchant and environment created in [since, until) pending again,
   * due at `now`, each with a fresh attempt budget and its own event id. How many were.
   */
  readonly requeueFailed: (range: {
    readonly merchantId: MerchantId
    readonly environment: Environment
    readonly since: Instant
    readonly until: Instant | undefined
    readonly now: Instant
  }) => Effect.Effect<number, StorageError>
}>() {}

/** How one attempt to a delivery's target went: what `noteTargetOutcome` notes. */
export interface TargetOutcome {
  readonly deliveryId: string
  readonly at: Instant
  readonly succeeded: boolean
  readonly slow: boolean
  readonly pauseAfterSeconds: number | undefined
}

export interface EventQuery {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly type?: string
  readonly objectId?: string
  /** Created at or after. */
  readonly since?: Instant
  /** Created before. */
  readonly until?: Instant
  /** The last event of the previous page. */
  readonly before?: { readonly createdAt: Instant; readonly id: string }
  readonly limit: number
}
