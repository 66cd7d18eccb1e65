import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { toIsoString } from "../../../core/shared/instant.js"
import type { WebhookDelivery } from "../../../core/webhooks/delivery.js"
import { eventWithAttempts, listEvents, recoverEvents, redeliverEvent } from "../../../core/webhooks/merchant-events.js"
import * as Parameters from "../contract/event-parameters.js"
import * as Resources from "../contract/event-resources.js"
import { dateTime } from "../contract/field-rules.js"
import { textInPath } from "../contract/parameters.js"
import { bodyContract, validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { ResourceNotFound } from "../response/edge-errors.js"
import { attemptJson, redeliveryAnswer } from "../response/delivery-serializers.js"

const eventJson = (event: WebhookDelivery): typeof Resources.Event.Type => ({
  id: event.id,
  type: event.event,
  object_id: event.objectId,
  sequence: event.sequence,
  created_at: toIsoString(event.createdAt),
  url: event.url,
  status: event.status,
  attempts: event.attempts,
  next_attempt_at: event.nextAttemptAt === null ? null : toIsoString(event.nextAttemptAt),
  last_status_code: event.lastStatusCode,
  last_error: event.lastError
})

const eventIdInPath = textInPath("eventId", "The event id (X-Event-Id, webhook-id).")
const notFound = new ResourceNotFound({ resource: "Event" })

const list = endpoint({
  method: "get",
  path: "/api/v1/events",
  operationId: "listEvents",
  summary: "List events, newest first",
  description: "Every event queued for the merchant in the environment of the request, with its delivery. " +
    "Pages follow next_cursor, which stays right while new events arrive.",
  tag: "Events",
  security: "merchant",
  query: Parameters.eventListQuery,
  success: { status: 200, description: "A page of events.", schema: Resources.EventPage },
  handler: ({ object_id: objectId, ...request }) => Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const page = yield* listEvents(caller, { ...request, ...(objectId !== undefined ? { objectId } : {}) })
    return {
      data: page.events.map(eventJson),
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor,
      paused_targets: page.pausedTargets.map((target) => ({
        target: target.target,
        failing_since: toIsoString(target.failingSince),
        paused_at: toIsoString(target.pausedAt)
      }))
    }
  })
})

const retrieve = endpoint({
  method: "get",
  path: "/api/v1/events/{eventId}",
  operationId: "retrieveEvent",
  summary: "One event with its attempt log",
  tag: "Events",
  security: "merchant",
  parameters: [eventIdInPath],
  success: { status: 200, description: "The event.", schema: Resources.EventDetail },
  handler: Effect.gen(function*() {
    const found = yield* eventWithAttempts(yield* CurrentMerchant, yield* eventIdInPath.read)
    if (Option.isNone(found)) return yield* notFound
    return { ...eventJson(found.value.event), attempt_log: found.value.attempts.map(attemptJson) }
  })
})

const redeliver = endpoint({
  method: "post",
  path: "/api/v1/events/{eventId}/redeliver",
  operationId: "redeliverEvent",
  summary: "Send an event again",
  description: "Same event id and body, a fresh budget of attempts, due now; delivered or failed alike.",
  tag: "Events",
  security: "merchant",
  parameters: [eventIdInPath],
  success: { status: 200, description: "The event, pending again.", schema: Resources.Event },
  errors: ["DeliveryInFlight"],
  handler: Effect.gen(function*() {
    return yield* redeliveryAnswer(yield* redeliverEvent(yield* CurrentMerchant, yield* eventIdInPath.read), "Event", eventJson)
  })
})

export const recoverBody = bodyContract("RecoverEventsRequest", "The time range whose failed events are queued again.", {
  since: dateTime({ required: true, max: 64, description: "Events created at or after this time." }),
  until: dateTime({ max: 64, description: "Events created before this time; now when absent." })
})

const recover = endpoint({
  method: "post",
  path: "/api/v1/events/recover",
  operationId: "recoverEvents",
  summary: "Queue again the events that failed in a time range",
  description: "Each keeps its event id, so a receiver that deduplicates by it sees each event once; " +
    "an event queued again is no longer failed, so a second call does not queue it twice.",
  tag: "Events",
  security: "merchant",
  body: recoverBody,
  success: { status: 200, description: "How many events were queued again.", schema: Resources.RecoveredEvents },
  handler: Effect.gen(function*() {
    const { since, until } = yield* validBody(recoverBody)
    const recovered = yield* recoverEvents(yield* CurrentMerchant, { since, ...(until !== undefined ? { until } : {}) })
    return { queued: recovered.queued, resumed_targets: recovered.resumedTargets }
  })
})

/** The merchant's events (docs/api-contract.md says what the contract leaves open about them). */
export const eventEndpoints = [list, retrieve, redeliver, recover] as const
