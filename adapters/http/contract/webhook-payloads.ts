import * as Schema from "effect/Schema"
import { SubscriptionStatus } from "../../../core/subscriptions/subscription.js"
import { Environment, Integer, Money } from "./value-schemas.js"
import { EchoedFields } from "./payment-resources.js"
import { Invoice, Subscription } from "./subscription-resources.js"
import { Payout } from "./payout-contracts.js"

const Seconds = Integer.annotations({ description: "Unix time in seconds." })

export const PAYMENT_EVENT_STATUSES = ["completed", "failed", "cancelled", "expired"] as const

/** Spec 6.2, sent when a payment ends: `completed`, or why it failed. */
export const PaymentEvent = Schema.Struct({
  event: Schema.Literal(...PAYMENT_EVENT_STATUSES.map((status) => `payment.${status}` as const)),
  status: Schema.Literal(...PAYMENT_EVENT_STATUSES),
  message: Schema.String,
  timestamp: Seconds,
  data: Schema.Struct({
    ...EchoedFields,
    merchant_name: Schema.String,
    amount: Money,
    currency_code: Schema.String,
    environment: Environment,
    is_sandbox: Schema.Boolean,
    trx_id: Schema.String.annotations({ description: "Prefixed SANDBOX_ or PRODUCTION_; verify it before fulfilling." })
  })
}).annotations({
  identifier: "PaymentEvent",
  description: "A payment ended (spec 6.2). Signed with the environment's webhook secret."
})

/** Spec 6.3, sent after every refund. */
export const RefundEvent = Schema.Struct({
  event: Schema.Literal("payment.refunded"),
  status: Schema.Literal("refunded"),
  message: Schema.String,
  timestamp: Seconds,
  data: Schema.Struct({
    original_trx_id: Schema.String,
    refund_trx_id: Schema.String,
    ref_trx: Schema.String,
    ref_refund: Schema.String.annotations({ description: "The merchant's refund reference, \"\" when none was sent." }),
    refunded_amount: Money,
    total_refunded: Money,
    remaining_refund: Money,
    fully_refunded: Schema.Boolean,
    currency: Schema.String
  })
}).annotations({
  identifier: "RefundEvent",
  description: "A refund was recorded (spec 6.3). Signed with the environment's client (API) secret."
})

export const SUBSCRIPTION_EVENTS = [
  "invoice.created",
  "subscription.activated",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.cancelled"
] as const

/** The subscription events 6.4 leaves open: the subscription as the API returns it, and the invoice concerned. */
export const SubscriptionEvent = Schema.Struct({
  event: Schema.Literal(...SUBSCRIPTION_EVENTS),
  status: SubscriptionStatus.annotations({ description: "The subscription's status after the event." }),
  message: Schema.String,
  timestamp: Seconds,
  data: Schema.Struct({
    ...Subscription.fields,
    invoice: Schema.optional(Invoice)
  })
}).annotations({
  identifier: "SubscriptionEvent",
  description: "A subscription changed or opened an invoice. Signed with the environment's webhook secret."
})

export const PAYOUT_EVENTS = ["payout.created", "payout.paid", "payout.failed"] as const

/** Sent to the webhook endpoints subscribed (never to an ipn_url): the payout as GET /api/v1/payouts/{id} answers it. */
export const PayoutEvent = Schema.Struct({
  event: Schema.Literal(...PAYOUT_EVENTS),
  status: Payout.fields.status.annotations({ description: "The payout's status: payout.failed says `failed` or `rejected`." }),
  message: Schema.String,
  timestamp: Seconds,
  data: Payout
}).annotations({
  identifier: "PayoutEvent",
  description: "A payout was asked for, paid, or failed or was rejected. Sent to subscribed webhook endpoints, signed with the environment's webhook secret."
})
