import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { CheckoutLinks, type LinkFor } from "../payments/checkout-links.js"
import { type Instant, now } from "../shared/instant.js"
import { Ids } from "../signing/random-ids.js"
import type { NewDelivery } from "../webhooks/delivery.js"
import { enqueueEvents } from "../webhooks/endpoint-copies.js"
import type { SubscriptionEventType } from "../webhooks/event-types.js"
import type { Invoice, Subscription } from "./subscription.js"

/** The subscription events beyond the spec (6.4 leaves them open; the README documents them), from the one list of event types. */
export type SubscriptionEvent = SubscriptionEventType

/** What a subscription event's body is written from; `invoice` when one is concerned. */
export interface SubscriptionEventFacts {
  readonly event: SubscriptionEvent
  readonly subscription: Subscription
  readonly latest: Invoice | undefined
  readonly invoice: Invoice | undefined
  readonly at: Instant
  readonly linkFor: LinkFor
}

/**
 * Writes a subscription event's body to the exact text that is signed and sent on every attempt.
 * The shape is the subscription resource's, which is the edge's (adapters/http/response/event-bodies.ts).
 */
export class SubscriptionEventBody extends Context.Tag("merchant-payments/SubscriptionEventBody")<SubscriptionEventBody, {
  readonly render: (facts: SubscriptionEventFacts) => string
}>() {}

/** One subscription event; `invoice` when one is concerned. */
export interface SubscriptionEventRequest {
  readonly event: SubscriptionEvent
  readonly subscription: Subscription
  readonly latest: Invoice | undefined
  readonly invoice?: Invoice | undefined
}

/**
 * Enqueues subscription events to their ipn_url, in the caller's transaction, in the order given,
 * signed and sent exactly like a payment event: `event`, `status` (the subscription's), `data` (the
 * subscription resource, with `invoice` when one is concerned), `message`, `timestamp`. Events of
 * one change go together (enqueueEvents): fewer statements than one by one.
 */
export const enqueueSubscriptionEvents = (requests: ReadonlyArray<SubscriptionEventRequest>) =>
  Effect.gen(function*() {
    const links = yield* CheckoutLinks
    const bodies = yield* SubscriptionEventBody
    const ids = yield* Ids
    const at = yield* now
    const deliveries = yield* Effect.forEach(requests, ({ event, invoice, latest, subscription }) =>
      Effect.map(ids.uuid, (id): NewDelivery => ({
        id,
        merchantId: subscription.merchantId,
        environment: subscription.environment,
        event,
        url: subscription.ipnUrl,
        body: bodies.render({ event, subscription, latest, invoice, at, linkFor: links.linkFor }),
        signingSecret: "webhook_secret",
        // Invoice events too: an invoice is the subscription's, and its events are ordered with it.
        objectId: subscription.id,
        nextAttemptAt: at
      })))
    yield* enqueueEvents(deliveries)
  })

/** One subscription event, as enqueueSubscriptionEvents. */
export const enqueueSubscriptionEvent = (
  event: SubscriptionEvent,
  subscription: Subscription,
  latest: Invoice | undefined,
  invoice?: Invoice
) => enqueueSubscriptionEvents([{ event, subscription, latest, invoice }])
