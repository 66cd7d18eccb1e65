import * as Schema from "effect/Schema"
import { EVENT_FAMILIES, EVENT_TYPES } from "../../../core/webhooks/event-types.js"
import {
  MAX_ENDPOINT_DESCRIPTION,
  MAX_ENDPOINT_URL,
  MAX_EVENT_PATTERNS,
  WebhookEndpointStatus
} from "../../../core/webhooks/webhook-endpoint.js"
import { dataOf, listOf } from "./envelopes.js"
import { oneOf, string, stringArray, url } from "./field-rules.js"
import { bodyContract } from "./read-body.js"
import { Environment, Timestamp } from "./value-schemas.js"

/** The bodies and answers of /api/v1/webhook-endpoints. */

const EVENTS_DESCRIPTION = `Event types (${EVENT_TYPES.join(", ")}), a family's every type (${
  EVENT_FAMILIES.map((family) => `${family}.*`).join(", ")
}), or * for all; at most ${MAX_EVENT_PATTERNS}.`

const URL_DESCRIPTION = "HTTPS, resolving to public addresses only (checked now, DNS included), as a subscription's ipn_url."

export const createWebhookEndpointBody = bodyContract("CreateWebhookEndpointRequest", "A URL the merchant's events of the types named are sent to.", {
  url: url({ required: true, max: MAX_ENDPOINT_URL, description: URL_DESCRIPTION, examples: ["https://shop.example/webhooks"] }),
  events: stringArray({ required: true, maxItems: MAX_EVENT_PATTERNS, description: EVENTS_DESCRIPTION, examples: [["payout.*", "payment.completed"]] }),
  description: string({ max: MAX_ENDPOINT_DESCRIPTION, description: "The merchant's own note.", examples: ["Accounting"] })
})

export const updateWebhookEndpointBody = bodyContract("UpdateWebhookEndpointRequest", "What changes; the rest stays.", {
  url: url({ max: MAX_ENDPOINT_URL, description: URL_DESCRIPTION }),
  events: stringArray({ maxItems: MAX_EVENT_PATTERNS, description: `Replaces the list. ${EVENTS_DESCRIPTION}` }),
  description: string({ max: MAX_ENDPOINT_DESCRIPTION, description: "\"\" clears it." }),
  status: oneOf(WebhookEndpointStatus.literals, { description: "A disabled endpoint is sent no new event." })
}, { update: true })

const WebhookEndpoint = Schema.Struct({
  id: Schema.String.annotations({ examples: ["we_0123456789abcdef0123456789abcdef"] }),
  url: Schema.String,
  events: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  status: WebhookEndpointStatus,
  environment: Environment,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({
  identifier: "WebhookEndpoint",
  description: "Sent every event its patterns name, signed with the environment's webhook secret, as an ipn_url is."
})

export const WebhookEndpointEnvelope = dataOf(WebhookEndpoint, "WebhookEndpointAnswer")
export const WebhookEndpointList = listOf(WebhookEndpoint, "WebhookEndpointList")
export const DeletedWebhookEndpoint = dataOf(
  Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }).annotations({ identifier: "DeletedWebhookEndpoint" }),
  "DeletedWebhookEndpointAnswer"
)
