import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Gateway } from "../gateways/gateway.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { listRefunds, MAX_REFUND_LIMIT } from "../refunds/list-refunds.js"
import type { Refund } from "../refunds/refund.js"
import type { DeliveryAttempt, WebhookDelivery } from "../webhooks/delivery.js"
import { eventWithAttempts, listEvents, MAX_EVENT_LIMIT } from "../webhooks/merchant-events.js"
import { CheckoutAttempts, type CheckoutAttempt } from "./checkout-attempts.js"
import type { Payment } from "./payment.js"
import { verifyPayment } from "./verify-payment.js"

/** A webhook event about the payment, with every attempt to deliver it. */
export interface PaymentDelivery {
  readonly event: WebhookDelivery
  readonly attempts: ReadonlyArray<DeliveryAttempt>
}

/** Everything that happened to one payment, as the dashboard's detail page tells it. */
export interface PaymentHistory {
  readonly payment: Payment
  /** The gateways the customer chose at checkout, in order, with the gateway when it still exists. */
  readonly choices: ReadonlyArray<{ readonly attempt: CheckoutAttempt; readonly gateway: Gateway | undefined }>
  /** Oldest first. */
  readonly refunds: ReadonlyArray<Refund>
  /** Oldest first. */
  readonly deliveries: ReadonlyArray<PaymentDelivery>
}

/**
 * One payment of the caller's and its history: the gateways chosen, its refunds and every webhook
 * about it with its attempts. A payment of another merchant or environment is PaymentNotFound, as
 * verify answers it. A payment has a handful of refunds and events; the first hundred of each are told.
 */
export const paymentHistory = (scope: MerchantScope, trxId: string) =>
  Effect.gen(function*() {
    const payment = yield* verifyPayment(scope, trxId)
    const gateways = yield* GatewayRepository
    const attempts = yield* (yield* CheckoutAttempts).listForPayment(payment.trxId)
    const choices = yield* Effect.forEach(attempts, (attempt) =>
      Effect.map(gateways.findById(attempt.gatewayId), (gateway) => ({ attempt, gateway: Option.getOrUndefined(gateway) })))
    const refunds = yield* listRefunds(scope, { trxId: payment.trxId, limit: MAX_REFUND_LIMIT })
    const events = yield* listEvents(scope, { objectId: payment.trxId, limit: MAX_EVENT_LIMIT })
    const deliveries = yield* Effect.forEach(events.events, (event) =>
      Effect.map(eventWithAttempts(scope, event.id), (found) => ({ event, attempts: Option.match(found, { onNone: () => [], onSome: ({ attempts }) => attempts }) })))
    const history: PaymentHistory = {
      payment,
      choices: [...choices].sort((a, b) => (a.attempt.beganAt < b.attempt.beganAt ? -1 : a.attempt.beganAt > b.attempt.beganAt ? 1 : 0)),
      refunds: [...refunds.refunds].reverse(),
      deliveries: [...deliveries].reverse()
    }
    return history
  })
