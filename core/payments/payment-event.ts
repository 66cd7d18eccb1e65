import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Merchant } from "../merchants/merchant.js"
import type { Instant } from "../shared/instant.js"
import type { NewDelivery } from "../webhooks/delivery.js"
import type { PaymentEventType } from "../webhooks/event-types.js"
import { outcomeOf, type Payment, type PaymentOutcome } from "./payment.js"

/** The IPN status of a finished payment (docs/decisions.md): completed, or why it failed. */
export type PaymentEventStatus = "completed" | "failed" | "cancelled" | "expired"

/** The event's word for each outcome: the one place the IPN vocabulary meets the domain's. */
const EVENT_STATUS: Readonly<Record<PaymentOutcome, PaymentEventStatus>> = {
  paid: "completed",
  declined: "failed",
  cancelled: "cancelled",
  expired: "expired"
}

export const eventStatusOf = (payment: Payment): PaymentEventStatus | undefined => {
  const outcome = outcomeOf(payment)
  return outcome === undefined ? undefined : EVENT_STATUS[outcome]
}

/**
 * Writes a finished payment's event body (spec 6.2) to the exact text that is signed and sent on
 * every attempt. The contract's shape is the edge's (adapters/http/response/event-bodies.ts); core
 * decides when an event is due and its status, and stores the text in the change's own transaction.
 */
export class PaymentEventBody extends Context.Tag("merchant-payments/PaymentEventBody")<PaymentEventBody, {
  readonly render: (payment: Payment, status: PaymentEventStatus, merchant: Merchant, at: Instant) => string
}>() {}

/** The outbox row for a finished payment: signed with the environment's webhook secret (spec 6.1). */
export const paymentEventDelivery = (
  eventId: string,
  payment: Payment,
  merchant: Merchant,
  at: Instant
) => Effect.map(PaymentEventBody, (bodies): NewDelivery | undefined => {
  const status = eventStatusOf(payment)
  if (status === undefined) return undefined
  return {
    id: eventId,
    merchantId: payment.merchantId,
    environment: payment.environment,
    event: `payment.${status}` satisfies PaymentEventType,
    url: payment.ipnUrl,
    body: bodies.render(payment, status, merchant, at),
    signingSecret: "webhook_secret",
    objectId: payment.trxId,
    nextAttemptAt: at
  }
})
