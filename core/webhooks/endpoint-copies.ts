import * as Effect from "effect/Effect"
import { now } from "../shared/instant.js"
import { deliveryTime } from "../shared/test-clock-time.js"
import { Ids } from "../signing/random-ids.js"
import type { NewDelivery } from "./delivery.js"
import { EventLog } from "./event-log.js"
import { isSubscribed, type WebhookEndpoint } from "./webhook-endpoint.js"
import { WebhookEndpointRepository } from "./webhook-endpoint-repository.js"
import { WebhookOutbox } from "./webhook-outbox.js"

/** An event before it is bound for a URL: what every copy of it shares. */
export type EventToSend = Omit<NewDelivery, "id" | "url">

/**
 * Every event (payment, refund, subscription, account) passes here, so this is where it is written
 * once to the event log, in the caller's transaction, whether or not any target receives it: a
 * developer listening to the stream sees it even with no endpoint and no ipn_url.
 *
 * Then it is queued to its own URL (an ipn_url; none when `url` is empty) and once for every enabled
 * endpoint of its merchant and environment subscribed to its type, in the caller's transaction: each
 * copy is an event of its own (its id, its attempts), with the same body and signed as the event is
 * wherever it goes (a refund's X-Signature with the API secret, as spec 6.3 says, its Standard
 * Webhooks signature with the webhook secret too; every other event with the webhook secret), and
 * delivered, retried, paused and recovered as every event is. An endpoint at the event's own URL is
 * skipped, so no URL is sent one event twice. The logged event's id is the event's own (its own
 * URL's delivery's, when it has one).
 *
 * Several events of one change go together: one write to the log, one read of each merchant's
 * endpoints, one enqueue of every delivery (the statements per event are the scheduler's cost per
 * subscription), in the order given, so the log and each object's sequence number them as they
 * would one by one. Answers each event's own delivery (undefined without one) and every delivery queued.
 */
const writeEvents = (events: ReadonlyArray<NewDelivery>) =>
  Effect.gen(function*() {
    const ids = yield* Ids
    const createdAt = yield* now
    yield* (yield* EventLog).appendAll(events.map((event) => ({
      id: event.id,
      merchantId: event.merchantId,
      environment: event.environment,
      type: event.event,
      objectId: event.objectId,
      body: event.body,
      signingSecret: event.signingSecret,
      createdAt
    })))
    const repository = yield* WebhookEndpointRepository
    const endpointsOf = new Map<string, ReadonlyArray<WebhookEndpoint>>()
    const deliveries: Array<NewDelivery> = []
    for (const event of events) {
      const scope = `${event.merchantId}/${event.environment}`
      const endpoints = endpointsOf.get(scope) ?? (yield* repository.list(event.merchantId, event.environment))
      endpointsOf.set(scope, endpoints)
      if (event.url !== "") deliveries.push(event)
      for (const endpoint of endpoints) {
        if (isSubscribed(endpoint, event.event) && endpoint.url !== event.url) deliveries.push({ ...event, id: yield* ids.uuid, url: endpoint.url })
      }
    }
    const queued = deliveries.length === 0 ? [] : yield* (yield* WebhookOutbox).enqueueAll(deliveries)
    const own = events.map((event) => (event.url === "" ? undefined : queued.find((delivery) => delivery.id === event.id)))
    return { own, queued }
  })

/** An event with no URL of its own (an account event): logged, and queued to every endpoint subscribed. Answers those deliveries. */
export const enqueueToEndpoints = (event: EventToSend) =>
  Effect.flatMap(Effect.flatMap(Ids, (ids) => ids.uuid), (id) =>
    Effect.map(writeEvents([{ ...event, id, url: "" }]), ({ queued }) => queued))

/**
 * Payments' and subscriptions' events: to their own ipn_url, as the contract says, and to every
 * endpoint subscribed. An event of a test clock's object goes out on the deployment's time. An empty
 * ipn_url means the object has no target of its own (a sandbox object made without one): nothing is
 * queued for it, while the event is still logged and copied to the endpoints. Answers each event's
 * ipn_url delivery, undefined when there is none.
 */
export const enqueueEvents = (events: ReadonlyArray<NewDelivery>) =>
  Effect.gen(function*() {
    const timed = yield* Effect.forEach(events, (event) =>
      event.nextAttemptAt === null
        ? Effect.succeed(event)
        : Effect.map(deliveryTime(event.nextAttemptAt), (nextAttemptAt): NewDelivery => ({ ...event, nextAttemptAt })))
    return (yield* writeEvents(timed)).own
  })

/** One event, as enqueueEvents. */
export const enqueueEvent = (event: NewDelivery) => Effect.map(enqueueEvents([event]), (own) => own[0])
