// Written by `npm run client:operations` from the endpoint declarations (adapters/http/merchant-api/merchant-api.ts).
// Do not edit: client/operations.test.ts fails when this file differs from what the declarations give.

/** Every merchant API operation: its method and path template (`{name}` for a path parameter). */
export const OPERATIONS = {
  initiatePayment: { method: "POST", path: "/api/v1/initiate-payment" },
  verifyPayment: { method: "GET", path: "/api/v1/verify-payment/{trxId}" },
  simulatePayment: { method: "POST", path: "/api/v1/sandbox/payments/{trxId}/simulate" },
  listPayments: { method: "GET", path: "/api/v1/payments" },
  refundPayment: { method: "POST", path: "/api/v1/refund-payment" },
  listRefunds: { method: "GET", path: "/api/v1/refunds" },
  siteInfo: { method: "GET", path: "/api/v1/site-info" },
  createSubscription: { method: "POST", path: "/api/v1/subscriptions" },
  listSubscriptions: { method: "GET", path: "/api/v1/subscriptions" },
  retrieveSubscription: { method: "GET", path: "/api/v1/subscriptions/{subscriptionId}" },
  cancelSubscription: { method: "POST", path: "/api/v1/subscriptions/{subscriptionId}/cancel" },
  renewSubscription: { method: "POST", path: "/api/v1/subscriptions/{subscriptionId}/renew" },
  updateSubscription: { method: "POST", path: "/api/v1/subscriptions/{subscriptionId}/update" },
  pauseSubscription: { method: "POST", path: "/api/v1/subscriptions/{subscriptionId}/pause" },
  resumeSubscription: { method: "POST", path: "/api/v1/subscriptions/{subscriptionId}/resume" },
  getBillingSettings: { method: "GET", path: "/api/v1/billing-settings" },
  replaceBillingSettings: { method: "PUT", path: "/api/v1/billing-settings" },
  createTestClock: { method: "POST", path: "/api/v1/test-clocks" },
  listTestClocks: { method: "GET", path: "/api/v1/test-clocks" },
  getTestClock: { method: "GET", path: "/api/v1/test-clocks/{testClockId}" },
  advanceTestClock: { method: "POST", path: "/api/v1/test-clocks/{testClockId}/advance" },
  deleteTestClock: { method: "DELETE", path: "/api/v1/test-clocks/{testClockId}" },
  invoicePdf: { method: "GET", path: "/api/v1/subscriptions/{subscriptionId}/invoices/{invoiceId}/pdf" },
  createCustomerPortalSession: { method: "POST", path: "/api/v1/customer-portal-sessions" },
  listBalances: { method: "GET", path: "/api/v1/balances" },
  getPayoutSettings: { method: "GET", path: "/api/v1/payout-settings" },
  createPayoutDestination: { method: "POST", path: "/api/v1/payout-destinations" },
  listPayoutDestinations: { method: "GET", path: "/api/v1/payout-destinations" },
  deletePayoutDestination: { method: "DELETE", path: "/api/v1/payout-destinations/{destinationId}" },
  createPayout: { method: "POST", path: "/api/v1/payouts" },
  listPayouts: { method: "GET", path: "/api/v1/payouts" },
  getPayout: { method: "GET", path: "/api/v1/payouts/{payoutId}" },
  listPayoutEntries: { method: "GET", path: "/api/v1/payouts/{payoutId}/entries" },
  listDisputes: { method: "GET", path: "/api/v1/disputes" },
  getDispute: { method: "GET", path: "/api/v1/disputes/{disputeId}" },
  submitDisputeEvidence: { method: "POST", path: "/api/v1/disputes/{disputeId}/evidence" },
  listEvents: { method: "GET", path: "/api/v1/events" },
  retrieveEvent: { method: "GET", path: "/api/v1/events/{eventId}" },
  redeliverEvent: { method: "POST", path: "/api/v1/events/{eventId}/redeliver" },
  recoverEvents: { method: "POST", path: "/api/v1/events/recover" },
  createWebhookEndpoint: { method: "POST", path: "/api/v1/webhook-endpoints" },
  listWebhookEndpoints: { method: "GET", path: "/api/v1/webhook-endpoints" },
  getWebhookEndpoint: { method: "GET", path: "/api/v1/webhook-endpoints/{endpointId}" },
  updateWebhookEndpoint: { method: "POST", path: "/api/v1/webhook-endpoints/{endpointId}" },
  deleteWebhookEndpoint: { method: "DELETE", path: "/api/v1/webhook-endpoints/{endpointId}" },
  listRequestLogs: { method: "GET", path: "/api/v1/request-logs" }
} as const

/** Request fields that carry money, at the top level of a body: sent as JSON numbers from decimal strings. */
export const REQUEST_MONEY_FIELDS: ReadonlyArray<string> = ["amount", "payment_amount"]

/** Response fields that carry money, at any depth: read back as their exact text. */
export const RESPONSE_MONEY_FIELDS: ReadonlyArray<string> = ["amount", "available", "balance", "fee", "in_payouts", "net_amount", "payout_minimum", "pending", "refunded_amount", "remaining_refund", "reserve_percent", "reserved", "total_refunded"]
