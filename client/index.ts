/**
 * `merchant-payments/client`: what a merchant's server needs to call any running host and to check
 * what it sends back. Node 20+, global fetch, no runtime dependency beyond the package's own.
 */
export { createMerchantClient, type MerchantClient, type MerchantClientOptions, type CallOptions, type OperationInput } from "./merchant-client.js"
export {
  type ApiErrorBody,
  MerchantApiError,
  MerchantTransportError,
  type TransportFailure
} from "./client-errors.js"
export type {
  Environment,
  InitiatePaymentRequest,
  OperationId,
  PathOf,
  PaymentSession,
  PaymentStatus,
  Refund,
  RefundRequest,
  RequestOf,
  ResponseOf,
  SimulatedOutcome,
  SiteInfo,
  Transaction
} from "./api-types.js"
export type {
  BillingCycle,
  CancelSubscriptionRequest,
  CreateSubscriptionRequest,
  Invoice,
  InvoiceStatus,
  ListSubscriptionsQuery,
  RenewSubscriptionRequest,
  Subscription,
  SubscriptionPage,
  SubscriptionResponse,
  SubscriptionStatus
} from "./subscription-types.js"
export type { ListPaymentsQuery, ListRefundsQuery, PaymentPage, RefundItem, RefundPage } from "./list-types.js"
export type { Event, EventDetail, EventPage, ListEventsQuery, RecoveredEvents, RecoverEventsRequest } from "./event-types.js"
export type { DecimalString } from "./exact-json.js"
export type { BackoffSettings } from "./retry-policy.js"
export type { FetchFunction } from "./signed-transport.js"
export type { HeaderValue, MerchantWebhookCheck, WebhookDelivery } from "./webhook-check.js"
// The kit's own check, for a receiver that holds its secrets elsewhere than in a client.
export { standardWebhookSecret, verifyWebhook, type WebhookCheck, type WebhookKind, webhookKindOf } from "../core/webhooks/verify-webhook.js"
