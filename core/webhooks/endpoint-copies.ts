import * as Effect from "effect/Effect"
import { now } from "../shared/instant.js"
import { deliveryTime } from "../shared/test-clock-time.js"
import { Ids } from "../signing/random-ids.js"
import type { NewDelivery } from "./delivery.js"
import { EventLog } from "./event-log.js"
import { isSubscribed } from "./webhook-endpoint.js"
import { WebhookEndpointRepository } from "./webhook-endpoint-repository.js"
import { WebhookOutbox } from "./webhook-outbox.js"

/** An event before it is bound for a URL: what every copy of it shares. */
export type EventToSend = Omit<NewDelivery, "id" | "url">

/**
 * Every event (payment, refund, subscription, account) passes here, so this is where it is written
 * once to the event log, in the caller's transaction, whether or not any target receives it: a
 * developer listening to the stream sees it even with no endpoint and no ipn_url.
 *
 * Then it is queued once for every enabled endpoint of its merchant and environment subscribed to its
 * type, in the caller's transaction: each copy is an event of its own (its id, its attempts), with
 * the same body and signed as the event is wherever it goes (a refund's X-Signature with the API
 * secret, as spec 6.3 says, its Standard Webhooks signature with the webhook secret too; every other
 * event with the webhook secret), and delivered, retried, paused and recovered as every event is. A URL in `except` (the ipn_url the event already goes to) is skipped,
 * so no URL is sent one event twice. `eventId` is the logged event's id (its ipn_url delivery's,
 * when it has one); a fresh one otherwise.
 */
export const enqueueToEndpoints = (event: EventToSend, except?: string, eventId?: string) =>
  Effect.gen(function*() {
    const ids = yield* Ids
    yield* (yield* EventLog).append({
      id: eventId ?? (yield* ids.uuid),
      merchantId: event.merchantId,
      environment: event.environment,
      type: event.event,
      objectId: event.objectId,
      body: event.body,
      signingSecret: event.signingSecret,
      createdAt: yield* now
    })
    const endpoints = (yield* (yield* WebhookEndpointRepository).list(event.merchantId, event.environment))
      .filter((endpoint) => isSubscribed(endpoint, event.event) && endpoint.url !== except)
    const outbox = yield* WebhookOutbox
    // One after another: the outbox numbers an object's events in the order they are queued.
    return yield* Effect.forEach(endpoints, (endpoint) =>
      Effect.flatMap(ids.uuid, (id) => outbox.enqueue({ ...event, id, url: endpoint.url })))
  })

/**
 * A payment's or subscription's event: to its own ipn_url, as the contract says, and to every
 * endpoint subscribed. An event of a test clock's object goes out on the deployment's time. An empty
 * ipn_url means the object has no target of its own (a sandbox object made without one): nothing is
 * queued for it, while the event is still logged and copied to the endpoints. Answers the ipn_url's
 * delivery, undefined when there is none.
 */
export const enqueueEvent = (queued_: NewDelivery) =>
  Effect.gen(function*() {
    const delivery = queued_.nextAttemptAt === null ? queued_ : { ...queued_, nextAttemptAt: yield* deliveryTime(queued_.nextAttemptAt) }
    const queued = delivery.url === "" ? undefined : yield* (yield* WebhookOutbox).enqueue(delivery)
    const { id, url, ...event } = delivery
    yield* enqueueToEndpoints(event, url === "" ? undefined : url, id)
    return queued
  })
