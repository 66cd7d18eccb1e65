import type { AuditLog } from "./audit/audit-log.js"
import type { BalanceRepository } from "./balances/balance-repository.js"
import type { PayoutSettingsRepository } from "./balances/payout-settings-repository.js"
import type { BillingSettingsRepository } from "./subscriptions/billing-settings.js"
import type { TestClockRepository } from "./subscriptions/test-clock.js"
import type { SavedMethodRepository } from "./subscriptions/saved-method.js"
import type { Ledger } from "./ledger/ledger.js"
import type { MailOutbox } from "./mail/mail-outbox.js"
import type { EventLog } from "./webhooks/event-log.js"
import type { IdempotencyStore } from "./idempotency/idempotency-store.js"
import type { CredentialRepository } from "./merchants/credentials.js"
import type { MerchantCurrencyRepository } from "./merchants/currency-repository.js"
import type { MerchantRepository } from "./merchants/merchant-repository.js"
import type { DashboardSessionRepository } from "./merchant-users/dashboard-session-repository.js"
import type { MerchantUserRepository } from "./merchant-users/merchant-user-repository.js"
import type { PortalSessionRepository } from "./customer-portal/portal-session-repository.js"
import type { CheckoutAttempts } from "./payments/checkout-attempts.js"
import type { CheckoutFrameAncestors } from "./merchants/checkout-frames.js"
import type { GatewayRepository } from "./gateways/gateway-repository.js"
import type { PaymentFlags } from "./payments/payment-flags.js"
import type { PaymentRepository } from "./payments/payment-repository.js"
import type { PayoutDestinationRepository } from "./payouts/payout-destination-repository.js"
import type { PayoutRepository } from "./payouts/payout-repository.js"
import type { DisputeRepository } from "./disputes/dispute-repository.js"
import type { RateLimitCounters } from "./rate-limit/rate-limit-counters.js"
import type { ReconciliationRepository } from "./reconciliation/reconciliation-repository.js"
import type { GatewayRefunds } from "./refunds/gateway-refund.js"
import type { RefundRepository } from "./refunds/refund-repository.js"
import type { SettingsRepository } from "./settings/settings-repository.js"
import type { StoreHealth } from "./shared/store-health.js"
import type { Transactor } from "./shared/transactor.js"
import type { SchedulerLease } from "./subscriptions/scheduler-lease.js"
import type { SubscriptionRepository } from "./subscriptions/subscription-repository.js"
import type { WalletRepository } from "./wallets/wallet-repository.js"
import type { WebhookEndpointRepository } from "./webhooks/webhook-endpoint-repository.js"
import type { WebhookOutbox } from "./webhooks/webhook-outbox.js"

/** Every port a storage adapter provides; a storage Layer is a `Layer<Storage>`. */
export type Storage =
  | Transactor
  | MerchantRepository
  | CredentialRepository
  | MerchantCurrencyRepository
  | WalletRepository
  | Ledger
  | GatewayRepository
  | PaymentRepository
  | CheckoutAttempts
  | CheckoutFrameAncestors
  | PaymentFlags
  | RefundRepository
  | GatewayRefunds
  | SubscriptionRepository
  | SchedulerLease
  | WebhookOutbox
  | IdempotencyStore
  | RateLimitCounters
  | SettingsRepository
  | StoreHealth
  | AuditLog
  | MerchantUserRepository
  | DashboardSessionRepository
  | PayoutDestinationRepository
  | PayoutRepository
  | WebhookEndpointRepository
  | PayoutSettingsRepository
  | BillingSettingsRepository
  | TestClockRepository
  | SavedMethodRepository
  | BalanceRepository
  | ReconciliationRepository
  | DisputeRepository
  | PortalSessionRepository
  | MailOutbox
  | EventLog
