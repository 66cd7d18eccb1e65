import * as Effect from "effect/Effect"
import { CheckoutLinks } from "../payments/checkout-links.js"
import { now, toSeconds } from "../shared/instant.js"
import { renderJson } from "../shared/json-text.js"
import { Ids } from "../signing/random-ids.js"
import { WebhookOutbox } from "../webhooks/webhook-outbox.js"
import type { Invoice, Subscription } from "./subscription.js"
import { invoiceJson, subscriptionJson } from "./subscription-json.js"

/** The subscription events beyond the spec (6.4 leaves them open; the README documents them). */
export type SubscriptionEvent =
  | "subscription.activated"
  | "subscription.renewed"
  | "subscription.past_due"
  | "subscription.cancelled"
  | "invoice.created"

const MESSAGES: Record<SubscriptionEvent, string> = {
  "subscription.activated": "Subscription activated: the first invoice was paid.",
  "subscription.renewed": "Subscription renewed: the period was extended by a paid invoice.",
  "subscription.past_due": "Subscription past due: the paid period ended and its invoice awaits payment.",
  "subscription.cancelled": "Subscription cancelled: no further invoices will be created.",
  "invoice.created": "Invoice created: send the customer to its payment_url."
}

/**
 * Enqueues a subscription event to its ipn_url, in the caller's transaction, signed and sent exactly
 * like a payment event: `event`, `status` (the subscription's), `data` (the subscription resource,
 * with `invoice` when one is concerned), `message`, `timestamp`.
 */
export const enqueueSubscriptionEvent = (
  event: SubscriptionEvent,
  subscription: Subscription,
  latest: Invoice | undefined,
  invoice?: Invoice
) =>
  Effect.gen(function*() {
    const links = yield* CheckoutLinks
    const at = yield* now
    const body = renderJson({
      event,
      status: subscription.status,
      message: MESSAGES[event],
      timestamp: toSeconds(at),
      data: {
        ...subscriptionJson(subscription, latest, links.linkFor),
        ...(invoice === undefined ? {} : { invoice: invoiceJson(invoice, links.linkFor) })
      }
    })
    yield* (yield* WebhookOutbox).enqueue({
      id: yield* (yield* Ids).uuid,
      merchantId: subscription.merchantId,
      environment: subscription.environment,
      event,
      url: subscription.ipnUrl,
      body,
      signingSecret: "webhook_secret",
      // Invoice events too: an invoice is the subscription's, and its events are ordered with it.
      objectId: subscription.id,
      nextAttemptAt: at
    })
  })
