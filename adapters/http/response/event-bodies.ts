import * as Layer from "effect/Layer"
import { toJsonNumberText } from "../../../core/money/format.js"
import type { Amount } from "../../../core/money/amount.js"
import { PaymentEventBody, type PaymentEventStatus } from "../../../core/payments/payment-event.js"
import { leftFullyRefunded } from "../../../core/refunds/refund.js"
import { RefundEventBody } from "../../../core/refunds/refund-event.js"
import { toSeconds } from "../../../core/shared/instant.js"
import { ExactNumber, renderJson } from "../../../core/shared/json-text.js"
import { type SubscriptionEvent, SubscriptionEventBody } from "../../../core/subscriptions/subscription-events.js"
import { type AccountEvent, AccountEventBody } from "../../../core/webhooks/account-events.js"
import type { AccountEventType } from "../../../core/webhooks/event-types.js"
import { TEST_EVENT, TestEventBody } from "../../../core/webhooks/test-event.js"
import { echoedFields } from "./payment-serializers.js"
import { balanceJson } from "./balance-json.js"
import { disputeJson } from "./dispute-json.js"
import { payoutJson } from "./payout-json.js"
import { invoiceJson, subscriptionJson } from "./subscription-json.js"

const PAYMENT_MESSAGES: Record<PaymentEventStatus, string> = {
  completed: "Payment completed successfully.",
  failed: "Payment failed.",
  cancelled: "Payment was cancelled.",
  expired: "Payment session expired."
}

const SUBSCRIPTION_MESSAGES: Record<SubscriptionEvent, string> = {
  "subscription.activated": "Subscription activated: the first invoice was paid.",
  "subscription.renewed": "Subscription renewed: the period was extended by a paid invoice.",
  "subscription.past_due": "Subscription past due: the paid period ended and its invoice awaits payment.",
  "subscription.cancelled": "Subscription cancelled: no further invoices will be created.",
  "invoice.created": "Invoice created: send the customer to its payment_url.",
  "subscription.updated": "Subscription updated: its amount or billing cycle changed, now or from the next period.",
  "subscription.paused": "Subscription paused: no invoices are created until it resumes.",
  "subscription.resumed": "Subscription resumed: billing continues at the next period boundary.",
  "subscription.trial_will_end": "Trial ends soon: the first invoice is created at trial_end.",
  "invoice.reminder": "Invoice reminder: the renewal invoice is still unpaid; its payment_url is payable.",
  "invoice.uncollectible": "Invoice uncollectible: the grace period ended unpaid and the merchant's final action follows.",
  "invoice.paid": "Invoice paid.",
  "invoice.payment_failed": "Invoice payment failed: the saved payment method was declined."
}

/** The body of spec 6.2: the payment's echoed request, its money and its environment. */
const paymentEventBody = PaymentEventBody.of({
  render: (payment, status, merchant, at) =>
    renderJson({
      event: `payment.${status}`,
      status,
      message: PAYMENT_MESSAGES[status],
      timestamp: toSeconds(at),
      data: {
        ...echoedFields(payment),
        merchant_name: merchant.name,
        amount: new ExactNumber(toJsonNumberText(payment.amount)),
        currency_code: payment.currency,
        environment: payment.environment,
        is_sandbox: payment.environment === "sandbox",
        trx_id: payment.trxId
      }
    })
})

/**
 * A subscription event, shaped like a payment event: `event`, `status` (the subscription's), `data`
 * (the subscription resource the API answers with, plus `invoice` when one is concerned), `message`,
 * `timestamp`. One shape for both, so an event and a retrieve cannot disagree.
 */
const subscriptionEventBody = SubscriptionEventBody.of({
  render: ({ at, event, invoice, latest, linkFor, subscription }) =>
    renderJson({
      event,
      status: subscription.status,
      message: SUBSCRIPTION_MESSAGES[event],
      timestamp: toSeconds(at),
      data: {
        ...subscriptionJson(subscription, latest, linkFor),
        ...(invoice === undefined ? {} : { invoice: invoiceJson(invoice, linkFor) })
      }
    })
})

const exact = (amount: Amount) => new ExactNumber(toJsonNumberText(amount))

/** Spec 6.3: the refund with the payment's totals as they stood once it was made. */
const refundEventBody = RefundEventBody.of({
  render: (payment, refund, at) =>
    renderJson({
      event: "payment.refunded",
      status: "refunded",
      message: "Refund processed successfully.",
      timestamp: toSeconds(at),
      data: {
        original_trx_id: payment.trxId,
        refund_trx_id: refund.refundTrxId,
        ref_trx: payment.refTrx,
        ref_refund: refund.refRefund ?? "",
        refunded_amount: exact(refund.amount),
        total_refunded: exact(refund.totalRefunded),
        remaining_refund: exact(refund.remainingRefund),
        fully_refunded: leftFullyRefunded(refund),
        currency: refund.currency
      }
    })
})

const ACCOUNT_MESSAGES: Record<AccountEventType, string> = {
  "payout.created": "Payout requested: the amount left the available balance and awaits approval.",
  "payout.paid": "Payout paid: the transfer left for the destination account.",
  "payout.failed": "Payout failed or was rejected: the amount is back in the available balance.",
  "dispute.created": "Dispute opened: the disputed amount and the dispute fee are held.",
  "dispute.updated": "Dispute updated.",
  "dispute.closed": "Dispute closed.",
  "balance.available": "Funds became available for payout."
}

/**
 * The object of an account event as the API answers it (GET /api/v1/payouts/{id} for a payout, GET
 * /api/v1/disputes/{id} for a dispute, the currency's entry of GET /api/v1/balances for a balance).
 */
const accountObject = (event: AccountEvent) => {
  switch (event.data.kind) {
    case "payout":
      return { status: event.data.payout.status, json: payoutJson(event.data.payout) }
    case "dispute":
      return { status: event.data.dispute.status, json: disputeJson(event.data.dispute) }
    case "balance":
      return { status: "available", json: balanceJson(event.data.balance) }
  }
}

/**
 * An account event, shaped like a payment event, so an endpoint reads one shape whatever it receives:
 * `event`, `status` (the object's), `message`, `timestamp`, `data` (the object as the API answers it).
 */
const accountEventBody = AccountEventBody.of({
  render: (event) => {
    const object = accountObject(event)
    return renderJson({ event: event.type, status: object.status, message: ACCOUNT_MESSAGES[event.type], timestamp: toSeconds(event.at), data: object.json })
  }
})

/** A test delivery: about no payment, so it names only the merchant and environment. */
const testEventBody = TestEventBody.of({
  render: (scope, at) =>
    renderJson({
      event: TEST_EVENT,
      status: TEST_EVENT,
      message: "Test event: your endpoint received and can verify this delivery. Nothing to fulfil.",
      timestamp: toSeconds(at),
      data: { merchant_name: scope.merchant.name, environment: scope.environment, is_sandbox: scope.environment === "sandbox" }
    })
})

/** The contract's event bodies, for the use cases that enqueue events. */
export const layer = Layer.mergeAll(
  Layer.succeed(PaymentEventBody, paymentEventBody),
  Layer.succeed(RefundEventBody, refundEventBody),
  Layer.succeed(SubscriptionEventBody, subscriptionEventBody),
  Layer.succeed(TestEventBody, testEventBody),
  Layer.succeed(AccountEventBody, accountEventBody)
)
