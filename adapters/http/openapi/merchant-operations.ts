import { initiatePaymentBody, refundPaymentBody, simulatePaymentBody } from "../contract/payment-contracts.js"
import { pageParameter, perPageParameter, subscriptionIdInPath, trxIdInPath } from "../contract/parameters.js"
import { CheckoutSession, RefundResult, SiteInfo, Transaction } from "../contract/payment-resources.js"
import { cancelSubscriptionBody, createSubscriptionBody, renewSubscriptionBody } from "../contract/subscription-contracts.js"
import { SubscriptionEnvelope, SubscriptionPage } from "../contract/subscription-resources.js"
import type { Operation } from "./operation.js"

const SUBSCRIPTION_CHANGE_ERRORS = ["SubscriptionNotFound", "SubscriptionTransitionRefused", "InvoiceSequenceTaken"] as const

/** Spec 4: the merchant API, signed per spec 5. */
export const merchantOperations: ReadonlyArray<Operation> = [
  {
    method: "post",
    path: "/api/v1/initiate-payment",
    operationId: "initiatePayment",
    summary: "Create a hosted checkout session",
    description: "Returns the signed, time-limited `payment_url` to send the customer to, and `info.trx_id`.",
    tag: "Payments",
    security: "merchant",
    body: initiatePaymentBody,
    success: { status: 200, description: "The checkout session (spec 2.2).", schema: CheckoutSession },
    errors: ["CurrencyNotEnabled", "ReceiverWalletUnavailable", "DuplicateReference"]
  },
  {
    method: "get",
    path: "/api/v1/verify-payment/{trxId}",
    operationId: "verifyPayment",
    summary: "A payment's latest status",
    description: "Only the merchant's own payments in the environment of the request.",
    tag: "Payments",
    security: "merchant",
    parameters: [trxIdInPath],
    success: { status: 200, description: "The transaction (spec 2.3).", schema: Transaction },
    errors: ["PaymentNotFound"]
  },
  {
    method: "post",
    path: "/api/v1/sandbox/payments/{trxId}/simulate",
    operationId: "simulatePayment",
    summary: "End a sandbox payment without a browser",
    tag: "Payments",
    security: "merchant",
    parameters: [trxIdInPath],
    body: simulatePaymentBody,
    success: { status: 200, description: "The transaction as it ended.", schema: Transaction },
    errors: ["PaymentNotFound", "PaymentAlreadyFinal"]
  },
  {
    method: "post",
    path: "/api/v1/refund-payment",
    operationId: "refundPayment",
    summary: "Refund a completed payment, fully or in part",
    description: "Debits the merchant wallet (the fee is not returned) and sends `payment.refunded`. The same `ref_refund` answers the original refund and moves no money.",
    tag: "Refunds",
    security: "merchant",
    body: refundPaymentBody,
    success: { status: 200, description: "The refund (spec 2.4).", schema: RefundResult },
    errors: [
      "PaymentNotFound",
      "PaymentNotRefundable",
      "PaymentFullyRefunded",
      "RefundExceedsBalance",
      "WalletInsufficientForRefund",
      "PartialRefundUnsupported",
      "RefundReferenceConflict"
    ]
  },
  {
    method: "get",
    path: "/api/v1/site-info",
    operationId: "siteInfo",
    summary: "Branding and environment labels",
    tag: "Site",
    security: "merchant",
    success: { status: 200, description: "Site information (spec 2.7).", schema: SiteInfo }
  },
  {
    method: "post",
    path: "/api/v1/subscriptions",
    operationId: "createSubscription",
    summary: "Create a subscription and its first invoice",
    tag: "Subscriptions",
    security: "merchant-production-default",
    body: createSubscriptionBody,
    success: { status: 201, description: "The subscription with `latest_invoice` (also for an idempotent replay).", schema: SubscriptionEnvelope },
    errors: ["CurrencyNotEnabled", "ReceiverWalletUnavailable", "ExternalReferenceTaken", "InvoiceSequenceTaken"]
  },
  {
    method: "get",
    path: "/api/v1/subscriptions",
    operationId: "listSubscriptions",
    summary: "List subscriptions, newest first",
    tag: "Subscriptions",
    security: "merchant-production-default",
    parameters: [pageParameter, perPageParameter],
    success: { status: 200, description: "A page of subscriptions.", schema: SubscriptionPage }
  },
  {
    method: "get",
    path: "/api/v1/subscriptions/{subscriptionId}",
    operationId: "retrieveSubscription",
    summary: "One subscription with its latest 20 invoices",
    tag: "Subscriptions",
    security: "merchant-production-default",
    parameters: [subscriptionIdInPath],
    success: { status: 200, description: "The subscription with `invoices`.", schema: SubscriptionEnvelope },
    errors: ["SubscriptionNotFound"]
  },
  {
    method: "post",
    path: "/api/v1/subscriptions/{subscriptionId}/cancel",
    operationId: "cancelSubscription",
    summary: "Cancel at the end of the paid period, or now",
    tag: "Subscriptions",
    security: "merchant-production-default",
    parameters: [subscriptionIdInPath],
    body: cancelSubscriptionBody,
    success: { status: 200, description: "The subscription.", schema: SubscriptionEnvelope },
    errors: SUBSCRIPTION_CHANGE_ERRORS
  },
  {
    method: "post",
    path: "/api/v1/subscriptions/{subscriptionId}/renew",
    operationId: "renewSubscription",
    summary: "Create or recover a renewal checkout",
    description: "Active subscriptions cannot renew early (409). A 503 is retried with the identical request and key.",
    tag: "Subscriptions",
    security: "merchant-production-default",
    parameters: [subscriptionIdInPath],
    body: renewSubscriptionBody,
    success: { status: 200, description: "The subscription with its open invoice.", schema: SubscriptionEnvelope },
    errors: SUBSCRIPTION_CHANGE_ERRORS
  }
]
