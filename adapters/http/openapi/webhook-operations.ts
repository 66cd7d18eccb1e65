import type * as Schema from "effect/Schema"
import { PAYMENT_EVENT_STATUSES, PaymentEvent, PAYOUT_EVENTS, PayoutEvent, RefundEvent, SUBSCRIPTION_EVENTS, SubscriptionEvent } from "../contract/webhook-payloads.js"

export interface WebhookEvent {
  readonly name: string
  readonly summary: string
  readonly secret: "webhook secret" | "client (API) secret"
  readonly payload: Schema.Schema.AnyNoContext
}

const PAYMENT_SUMMARIES: Record<(typeof PAYMENT_EVENT_STATUSES)[number], string> = {
  completed: "A payment completed: fulfil it (idempotently, on ref_trx and trx_id), after verifying the signature.",
  failed: "A payment was declined.",
  cancelled: "The customer cancelled the payment.",
  expired: "The checkout link expired unpaid."
}

const SUBSCRIPTION_SUMMARIES: Record<(typeof SUBSCRIPTION_EVENTS)[number], string> = {
  "invoice.created": "A new invoice: send the customer to its payment_url.",
  "subscription.activated": "The first invoice was paid: grant access up to current_period_end.",
  "subscription.renewed": "A later invoice was paid: the period was extended.",
  "subscription.past_due": "The paid period ended with its invoice unpaid.",
  "subscription.cancelled": "The subscription ended: no further invoices."
}

const PAYOUT_SUMMARIES: Record<(typeof PAYOUT_EVENTS)[number], string> = {
  "payout.created": "A payout was asked for: its amount left the available balance. Sent to subscribed webhook endpoints only.",
  "payout.paid": "A payout was marked paid: the transfer left for its destination. Sent to subscribed webhook endpoints only.",
  "payout.failed": "A payout failed or was rejected (its status says which): the amount is back in the balance. Sent to subscribed webhook endpoints only."
}

/** Every event the kit POSTs to an ipn_url (spec 6 and the subscription events), and to the webhook endpoints subscribed. */
export const webhookEvents: ReadonlyArray<WebhookEvent> = [
  ...PAYMENT_EVENT_STATUSES.map((status) => ({
    name: `payment.${status}`,
    summary: PAYMENT_SUMMARIES[status],
    secret: "webhook secret" as const,
    payload: PaymentEvent
  })),
  { name: "payment.refunded", summary: "A refund was recorded and the wallet debited.", secret: "client (API) secret", payload: RefundEvent },
  ...SUBSCRIPTION_EVENTS.map((event) => ({
    name: event,
    summary: SUBSCRIPTION_SUMMARIES[event],
    secret: "webhook secret" as const,
    payload: SubscriptionEvent
  })),
  ...PAYOUT_EVENTS.map((event) => ({ name: event, summary: PAYOUT_SUMMARIES[event], secret: "webhook secret" as const, payload: PayoutEvent }))
]

/** How the Standard Webhooks signature of an event is keyed: a whsec_ secret as the Standard Webhooks libraries key it. */
const standardKeying = (event: WebhookEvent) =>
  event.secret === "webhook secret"
    ? "keyed with the webhook secret as Standard Webhooks keys a whsec_ secret (the base64 after the prefix): pass it to a Standard Webhooks library as it is."
    : "one `v1,` signature keyed with the client (API) secret's bytes (its whsec_ form: standardWebhookSecret in the client), and one, space-separated, with the webhook secret as Standard Webhooks keys a whsec_ secret, so a library given the webhook secret as it is verifies it too."

const header = (name: string, description: string) => ({ name, in: "header", required: true, description, schema: { type: "string" } })

/** The webhook operation of one event: what the receiver gets and what it must answer. */
export const webhookOperation = (event: WebhookEvent, payloadSchema: unknown) => ({
  post: {
    operationId: `${event.name.replace(/[._](\w)/g, (_, letter: string) => letter.toUpperCase())}Event`,
    summary: event.name,
    description: `${event.summary} Up to 3 attempts (at once, after 60 s, after 300 s); any 2xx acknowledges.`,
    tags: ["Webhooks"],
    parameters: [
      header("X-Signature", `Hex HMAC-SHA256 of the raw body, keyed with the environment's current ${event.secret} (after a rotation, the new one at once); accept it with or without a sha256= prefix and compare in constant time.`),
      header("X-Environment", "`sandbox` or `production`, as in the payload."),
      header("X-Event-Id", "The event's id, the same on every retry: deduplicate on it."),
      header("webhook-id", "Standard Webhooks: the event's id, the same as X-Event-Id."),
      header("webhook-timestamp", "Standard Webhooks: this attempt's time, Unix seconds; refuse one more than 5 minutes from your clock."),
      header("webhook-signature", `Standard Webhooks: \`v1,\` and the base64 HMAC-SHA256 of \`{webhook-id}.{webhook-timestamp}.{raw body}\`, ${standardKeying(event)} During a rotation's overlap, the same for each replaced set still live, after the current set's.`)
    ],
    requestBody: { required: true, content: { "application/json": { schema: payloadSchema } } },
    responses: { "200": { description: "Acknowledged: answer as soon as the event is queued or processed." } }
  }
})
