import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { type Instant, now } from "../shared/instant.js"
import { keysetCursor, keysetPage, orderedRange, type KeysetRequest } from "../shared/keyset-page.js"
import type { DeliveryAttempt, FailingTarget, WebhookDelivery } from "./delivery.js"
import { redeliver, type Redelivery } from "./delivery-admin.js"
import { WebhookOutbox } from "./webhook-outbox.js"

/**
 * The merchant's own view of its events: every event queued for it in the environment of its
 * credentials, with where its delivery stands. An event of another merchant or environment is
 * answered as if it did not exist.
 */

export const DEFAULT_EVENT_LIMIT = 20
export const MAX_EVENT_LIMIT = 100

/** The shared paging (cursor, since, until, limit) and this list's own filters. */
export interface EventListRequest extends KeysetRequest {
  readonly type?: string
  readonly objectId?: string
}

export interface EventPage {
  readonly events: ReadonlyArray<WebhookDelivery>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
  /** The caller's targets paused for failing every attempt: their events wait until a recover. */
  readonly pausedTargets: ReadonlyArray<PausedTarget>
}

export type PausedTarget = FailingTarget & { readonly pausedAt: Instant }

const isPaused = (target: FailingTarget): target is PausedTarget => target.pausedAt !== null


/** Event ids are printable ASCII (uuids today). */
const eventCursor = keysetCursor("[\\x21-\\x7e]{1,100}", String)

/** One page, newest first; the next page starts after its last event, whatever arrived since. */
export const listEvents = (caller: MerchantScope, request: EventListRequest) =>
  Effect.gen(function*() {
    const outbox = yield* WebhookOutbox
    const { nextCursor, rows } = yield* keysetPage(eventCursor, request, ({ before, limit }) =>
      outbox.events({
        merchantId: caller.merchant.id,
        environment: caller.environment,
        limit,
        ...(request.type !== undefined ? { type: request.type } : {}),
        ...(request.objectId !== undefined ? { objectId: request.objectId } : {}),
        ...(request.since !== undefined ? { since: request.since } : {}),
        ...(request.until !== undefined ? { until: request.until } : {}),
        ...(before !== undefined ? { before } : {})
      }))
    const failing = yield* outbox.failingTargets({ merchantId: caller.merchant.id, environment: caller.environment })
    const page: EventPage = { events: rows, pausedTargets: failing.filter(isPaused), nextCursor }
    return page
  })

const ownEvent = (caller: MerchantScope, id: string) =>
  Effect.map(
    Effect.flatMap(WebhookOutbox, (outbox) => outbox.findById(id)),
    Option.filter((event) => event.merchantId === caller.merchant.id && event.environment === caller.environment)
  )

/** One event with its attempts, oldest first; none when the caller has no such event. */
export const eventWithAttempts = (caller: MerchantScope, id: string) =>
  Effect.gen(function*() {
    const found = yield* ownEvent(caller, id)
    if (Option.isNone(found)) return Option.none<{ readonly event: WebhookDelivery; readonly attempts: ReadonlyArray<DeliveryAttempt> }>()
    return Option.some({ event: found.value, attempts: yield* (yield* WebhookOutbox).attempts(id) })
  })

/** Sends one of the caller's events again: same id and body, a fresh budget of attempts, due now. */
export const redeliverEvent = (caller: MerchantScope, id: string) =>
  Effect.flatMap(ownEvent(caller, id), Option.match({
    onNone: () => Effect.succeed<Redelivery>({ _tag: "NotFound" }),
    onSome: (event) => redeliver(event.id)
  }))

/**
 * Queues again every event of the caller's that failed, created in [since, until) (until: now when
 * absent), and resumes its paused targets, whose waiting events go out with them. Each keeps its
 * event id, so a receiver deduplicating by it sees each event once; an event queued again is no
 * longer failed, so asking twice queues nothing twice.
 */
export const recoverEvents = (caller: MerchantScope, range: { readonly since: Instant; readonly until?: Instant }) =>
  Effect.gen(function*() {
    yield* orderedRange(range.since, range.until)
    const outbox = yield* WebhookOutbox
    const resumedTargets = yield* outbox.resumeTargets(caller.merchant.id, caller.environment)
    const queued = yield* outbox.requeueFailed({
      merchantId: caller.merchant.id,
      environment: caller.environment,
      since: range.since,
      until: range.until,
      now: yield* now
    })
    return { queued, resumedTargets }
  })

/**
 * Resumes the caller's paused targets: their waiting events go out, and every event of the caller's
 * that failed since the oldest of them began failing is queued again (recoverEvents), as those are
 * what the outage cost. Nothing paused: nothing done.
 */
export const resumePausedTargets = (caller: MerchantScope) =>
  Effect.gen(function*() {
    const failing = yield* (yield* WebhookOutbox).failingTargets({ merchantId: caller.merchant.id, environment: caller.environment })
    const paused = failing.filter(isPaused)
    if (paused.length === 0) return { queued: 0, resumedTargets: 0 }
    const since = paused.reduce((oldest, target) => (target.failingSince < oldest ? target.failingSince : oldest), paused[0]!.failingSince)
    return yield* recoverEvents(caller, { since })
  })
