import * as Layer from "effect/Layer"
import * as Audit from "./audit-log.js"
import * as Balances from "./balance-repository.js"
import * as BillingSettings from "./billing-settings-repository.js"
import * as CheckoutAttempts from "./checkout-attempt-repository.js"
import * as CheckoutFrames from "./checkout-frame-repository.js"
import * as Credentials from "./credential-repository.js"
import * as Currencies from "./currency-repository.js"
import * as CustomerPortal from "./customer-portal-repository.js"
import * as DashboardSessions from "./dashboard-session-repository.js"
import * as GatewayRefunds from "./gateway-refund-repository.js"
import * as Gateways from "./gateway-repository.js"
import * as Idempotency from "./idempotency-store.js"
import * as Ledger from "./ledger-repository.js"
import * as MailOutbox from "./mail-outbox.js"
import * as Merchants from "./merchant-repository.js"
import * as MerchantUsers from "./merchant-user-repository.js"
import * as PaymentFlags from "./payment-flag-repository.js"
import * as Payments from "./payment-repository.js"
import * as PayoutDestinations from "./payout-destination-repository.js"
import * as Payouts from "./payout-repository.js"
import * as PayoutSettings from "./payout-settings-repository.js"
import * as Disputes from "./dispute-repository.js"
import * as RateLimits from "./rate-limit-counters.js"
import * as Reconciliation from "./reconciliation-repository.js"
import * as Refunds from "./refund-repository.js"
import * as RequestLogs from "./request-log-repository.js"
import * as SavedMethods from "./saved-method-repository.js"
import * as SchedulerLease from "./scheduler-lease.js"
import * as Settings from "./settings-repository.js"
import * as StoreHealth from "./store-health.js"
import * as Subscriptions from "./subscription-repository.js"
import * as TestClocks from "./test-clock-repository.js"
import * as Transactor from "./transactor.js"
import * as Wallets from "./wallet-repository.js"
import * as WebhookEndpoints from "./webhook-endpoint-repository.js"
import * as WebhookOutbox from "./webhook-outbox.js"

/** Every storage port over whichever SqlClient is provided. */
export const sqlStorageLayer = Layer.mergeAll(
  Transactor.layer,
  Merchants.layer,
  Credentials.layer,
  Currencies.layer,
  Wallets.layer,
  Ledger.layer,
  Gateways.layer,
  Payments.layer,
  CheckoutAttempts.layer,
  CheckoutFrames.layer,
  PaymentFlags.layer,
  Refunds.layer,
  GatewayRefunds.layer,
  Idempotency.layer,
  RateLimits.layer,
  Settings.layer,
  Subscriptions.layer,
  SchedulerLease.layer,
  WebhookOutbox.layer,
  StoreHealth.layer,
  Audit.layer,
  MerchantUsers.layer,
  DashboardSessions.layer,
  PayoutDestinations.layer,
  Payouts.layer,
  WebhookEndpoints.layer,
  PayoutSettings.layer,
  BillingSettings.layer,
  TestClocks.layer,
  Balances.layer,
  Reconciliation.layer,
  Disputes.layer,
  CustomerPortal.layer,
  MailOutbox.layer,
  SavedMethods.layer,
  RequestLogs.layer
)
