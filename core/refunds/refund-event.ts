import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Payment } from "../payments/payment.js"
import type { Instant } from "../shared/instant.js"
import type { NewDelivery } from "../webhooks/delivery.js"
import type { Refund } from "./refund.js"

/**
 * Writes the refund event's body (spec 6.3) to the exact text that is signed and sent on every
 * attempt. The contract's shape is the edge's (adapters/http/response/event-bodies.ts).
 */
export class RefundEventBody extends Context.Tag("merchant-payments/RefundEventBody")<RefundEventBody, {
  readonly render: (payment: Payment, refund: Refund, at: Instant) => string
}>() {}

/** The refund event of spec 6.3, signed with the environment's API secret, to the payment's ipn_url. */
export const refundEventDelivery = (eventId: string, payment: Payment, refund: Refund, at: Instant) =>
  Effect.map(RefundEventBody, (bodies): NewDelivery => ({
    id: eventId,
    merchantId: payment.merchantId,
    environment: payment.environment,
    event: "payment.refunded",
    url: payment.ipnUrl,
    signingSecret: "client_secret",
    // A refund changes its payment: the payment is the object, so its events stay in one order.
    objectId: payment.trxId,
    nextAttemptAt: at,
    body: bodies.render(payment, refund, at)
  }))
