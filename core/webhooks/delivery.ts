import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

export const DeliveryStatus = Schema.Literal("pending", "delivered", "failed")
export type DeliveryStatus = typeof DeliveryStatus.Type

/**
 * Each host sends in two lanes with slots of their own: targets whose last attempt was slow (a
 * receiver that hangs until the timeout) wait in the slow lane, so they never hold the fast lane's
 * slots that every other target's events go out through.
 */
export type DeliveryLane = "fast" | "slow"

/** Which secret signs the body: payment events use the webhook secret, refund events the API secret (spec 6.3). */
export const SigningSecret = Schema.Literal("webhook_secret", "client_secret")
export type SigningSecret = typeof SigningSecret.Type

/** One event bound for one URL; `id` is the event id, stable across attempts and redeliveries. */
export interface WebhookDelivery {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly event: string
  readonly url: string
  /** The exact bytes that are signed and sent, fixed when the event is enqueued. */
  readonly body: string
  readonly signingSecret: SigningSecret
  /**
   * The object the event is about (a payment's trx_id, refunds included, or a subscription's id) and
   * the event's place among that object's events, from 1: a receiver drops one that arrives after a
   * later one. Null on events queued before the kit recorded them.
   */
  readonly objectId: string | null
  readonly sequence: number | null
  readonly status: DeliveryStatus
  readonly attempts: number
  readonly nextAttemptAt: Instant | null
  readonly lastError: string | null
  readonly lastStatusCode: number | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

/** What an event is queued with; the outbox numbers it among its object's events. */
export type NewDelivery =
  & Pick<WebhookDelivery, "id" | "merchantId" | "environment" | "event" | "url" | "body" | "signingSecret" | "nextAttemptAt">
  & { readonly objectId: string }

export interface DeliveryAttempt {
  readonly deliveryId: string
  readonly attempt: number
  readonly at: Instant
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
}

/** What a worker saw when it sent an attempt, and what should happen next. */
export interface AttemptReport {
  readonly deliveryId: string
  readonly worker: string
  readonly at: Instant
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
  /** delivered, failed for good, or pending with the time of the next attempt. */
  readonly next:
    | { readonly status: "delivered" }
    | { readonly status: "failed" }
    | { readonly status: "pending"; readonly nextAttemptAt: Instant }
}

/**
 * A merchant's webhook target (a URL's origin, in one environment) while every attempt to it fails:
 * since when, and, once that lasted the deployment's pause period, since when it is paused.
 */
export interface FailingTarget {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly target: string
  readonly failingSince: Instant
  readonly pausedAt: Instant | null
}
