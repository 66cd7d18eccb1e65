import type { EventStreamLimitReached } from "../../../core/webhooks/event-stream-slots.js"
import type { AuthenticationFailed, MerchantBlocked, MerchantPendingApproval, MerchantSuspended } from "../../../core/merchants/authentication-errors.js"
import type { MerchantKeyTaken } from "../../../core/merchants/credentials.js"
import type { MerchantNotFound } from "../../../core/merchants/merchant.js"
import type { LastOwner, MerchantUserEmailTaken, MerchantUserNotFound } from "../../../core/merchant-users/merchant-user.js"
import type { GatewayCodeTaken, GatewayNotFound } from "../../../core/gateways/gateway.js"
import type { NotificationTargetUnknown } from "../../../core/payments/gateway-notifications.js"
import type { PluginCallFailed, UnknownGatewayPlugin } from "../../../core/gateways/gateway-plugin.js"
import type {
  CurrencyNotEnabled,
  DuplicateReference,
  PaymentAlreadyFinal,
  PaymentNotFound,
  ReceiverWalletUnavailable
} from "../../../core/payments/payment.js"
import type {
  PartialRefundUnsupported,
  PaymentFullyRefunded,
  PaymentNotRefundable,
  RefundExceedsBalance,
  RefundHeldByDisputes,
  RefundReferenceConflict,
  WalletInsufficientForRefund
} from "../../../core/refunds/refund.js"
import type { PayoutExceedsBalance, PayoutNotFound, PayoutTransitionRefused } from "../../../core/payouts/payout.js"
import type {
  DisputeEvidenceOverdue,
  DisputeEvidenceRefused,
  DisputeNotFound,
  DisputeRefused,
  DisputeTransitionRefused
} from "../../../core/disputes/dispute.js"
import type { PayoutDestinationLimitReached } from "../../../core/payouts/payout-destination.js"
import type { ReconciliationReportNotFound, SettlementReportUnsupported } from "../../../core/reconciliation/settlement.js"
import type { PlatformBankAccountMissing } from "../../../core/payouts/platform-bank-account.js"
import type { StorageError } from "../../../core/shared/storage-error.js"
import type { WebhookEndpointLimitReached, WebhookEndpointNotFound } from "../../../core/webhooks/webhook-endpoint.js"
import type { SchedulerBusy } from "../../../core/subscriptions/scheduler.js"
import type { InvoiceNotFound, InvoiceNotPaid } from "../../../core/subscriptions/invoice-documents.js"
import type { TestClockBusy, TestClockLimitReached, TestClockNotFound, TestClockSandboxOnly } from "../../../core/subscriptions/test-clock.js"
import type {
  ExternalReferenceTaken,
  InvoiceSequenceTaken,
  SubscriptionNotFound,
  SubscriptionTransitionRefused
} from "../../../core/subscriptions/subscription.js"
import type { ValidationFailed } from "../../../core/shared/validation.js"
import type { BalanceOverflow, InsufficientBalance, WalletExists, WalletNotFound } from "../../../core/wallets/wallet.js"
import type {
  AdminUnauthorized,
  AuthenticationThrottled,
  BodyTooLarge,
  DeliveryInFlight,
  IdempotencyKeyReused,
  IdempotentRequestInFlight,
  MalformedJson,
  MethodNotAllowed,
  RateLimited,
  ResourceNotFound,
  RouteNotFound,
  StoreUnavailable,
  UnsupportedMediaType
} from "./edge-errors.js"

/**
 * Every failure the API can answer with: the domain's errors and the edge's own. The error table
 * switches over this union exhaustively, so a new error that reaches a route without a row is a
 * type error, not a 500 found in production.
 */
export type ApiError =
  | AuthenticationFailed
  | NotificationTargetUnknown
  | PluginCallFailed
  | UnknownGatewayPlugin
  | MerchantPendingApproval
  | MerchantSuspended
  | MerchantBlocked
  | AdminUnauthorized
  | ValidationFailed
  | MalformedJson
  | BodyTooLarge
  | RouteNotFound
  | MethodNotAllowed
  | UnsupportedMediaType
  | ResourceNotFound
  | MerchantNotFound
  | MerchantKeyTaken
  | MerchantUserNotFound
  | MerchantUserEmailTaken
  | LastOwner
  | WalletNotFound
  | GatewayNotFound
  | GatewayCodeTaken
  | WalletExists
  | InsufficientBalance
  | BalanceOverflow
  | IdempotencyKeyReused
  | IdempotentRequestInFlight
  | PaymentNotFound
  | PaymentAlreadyFinal
  | CurrencyNotEnabled
  | ReceiverWalletUnavailable
  | DuplicateReference
  | DeliveryInFlight
  | PaymentNotRefundable
  | PaymentFullyRefunded
  | RefundExceedsBalance
  | PayoutDestinationLimitReached
  | PayoutNotFound
  | PayoutExceedsBalance
  | ReconciliationReportNotFound
  | SettlementReportUnsupported
  | PayoutTransitionRefused
  | WebhookEndpointLimitReached
  | WebhookEndpointNotFound
  | PlatformBankAccountMissing
  | DisputeNotFound
  | DisputeTransitionRefused
  | DisputeEvidenceOverdue
  | DisputeEvidenceRefused
  | DisputeRefused
  | RefundHeldByDisputes
  | RefundReferenceConflict
  | WalletInsufficientForRefund
  | PartialRefundUnsupported
  | SubscriptionNotFound
  | SubscriptionTransitionRefused
  | ExternalReferenceTaken
  | InvoiceSequenceTaken
  | InvoiceNotFound
  | InvoiceNotPaid
  | SchedulerBusy
  | TestClockNotFound
  | TestClockSandboxOnly
  | TestClockLimitReached
  | TestClockBusy
  | StoreUnavailable
  | StorageError
  | RateLimited
  | AuthenticationThrottled
  | EventStreamLimitReached
