import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import { patternMatches } from "./event-types.js"

/** A disabled endpoint is kept with its subscriptions but is sent nothing new. */
export const WebhookEndpointStatus = Schema.Literal("enabled", "disabled")
export type WebhookEndpointStatus = typeof WebhookEndpointStatus.Type

/**
 * A URL a merchant has the kit send events to, in one environment, for the event types its
 * patterns name (core/webhooks/event-types.ts): the place for events that belong to no payment's
 * ipn_url (payouts, disputes), and a second copy of payment and subscription events.
 */
export interface WebhookEndpoint {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly url: string
  /** Event types and patterns (`payout.*`, `*`), as given, without repeats. */
  readonly events: ReadonlyArray<string>
  readonly description: string | null
  readonly status: WebhookEndpointStatus
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

/**
 * Endpoints per merchant and environment: each event is queued once per subscribed endpoint, so the
 * number bounds what one change writes in its transaction.
 */
export const MAX_WEBHOOK_ENDPOINTS = 16

/** Patterns per endpoint: every event type and family fits well within it. */
export const MAX_EVENT_PATTERNS = 32

export const MAX_ENDPOINT_DESCRIPTION = 200

/** Longest URL accepted, as for an ipn_url. */
export const MAX_ENDPOINT_URL = 2048

/** Whether the endpoint takes a new event of `type` now. */
export const isSubscribed = (endpoint: WebhookEndpoint, type: string): boolean =>
  endpoint.status === "enabled" && endpoint.events.some((pattern) => patternMatches(pattern, type))

export class WebhookEndpointLimitReached extends Schema.TaggedError<WebhookEndpointLimitReached>()("WebhookEndpointLimitReached", {
  limit: Schema.Number
}) {}

export class WebhookEndpointNotFound extends Schema.TaggedError<WebhookEndpointNotFound>()("WebhookEndpointNotFound", {}) {}
