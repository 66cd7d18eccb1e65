import type { AuthenticationFailure } from "../../../core/merchants/authentication-errors.js"
import type { ApiError } from "./api-error.js"
import { Amount } from "../../../core/money/amount.js"
import { toCurrencyString } from "../../../core/money/format.js"

export interface ErrorDescription {
  readonly status: number
  readonly message: string
  readonly errorCode: string
  readonly errors?: Readonly<Record<string, ReadonlyArray<string>>>
  readonly headers?: Readonly<Record<string, string>>
}

/** The contract's own words for a refused credential (spec 4.1, 7.4). */
export const INVALID_CREDENTIALS_MESSAGE = "Invalid API credentials."

const authentication: Record<AuthenticationFailure, { readonly message: string; readonly field?: string }> = {
  missing_environment: { message: INVALID_CREDENTIALS_MESSAGE, field: "X-Environment" },
  invalid_environment: { message: INVALID_CREDENTIALS_MESSAGE, field: "X-Environment" },
  missing_credentials: { message: INVALID_CREDENTIALS_MESSAGE, field: "X-API-Key" },
  invalid_credentials: { message: INVALID_CREDENTIALS_MESSAGE },
  missing_timestamp: { message: "The X-Timestamp header is required.", field: "X-Timestamp" },
  malformed_timestamp: { message: "The X-Timestamp header must be Unix time in seconds.", field: "X-Timestamp" },
  stale_timestamp: { message: "The request timestamp is outside the allowed window.", field: "X-Timestamp" },
  missing_signature: { message: "The X-Signature header is required.", field: "X-Signature" },
  invalid_signature: { message: "The request signature is invalid.", field: "X-Signature" }
}

const fieldHints: Partial<Record<AuthenticationFailure, string>> = {
  missing_environment: "The X-Environment header is required: sandbox or production.",
  invalid_environment: "The X-Environment header must be sandbox or production.",
  missing_credentials: "The X-Merchant-Key and X-API-Key headers are required."
}

/** Why a merchant call's credentials were refused, with the header at fault: its 401, or the cause its 429 keeps. */
const credentialRefusal = (reason: AuthenticationFailure): Pick<ErrorDescription, "message" | "errors"> => {
  const { field, message } = authentication[reason]
  return { message, ...(field !== undefined ? { errors: { [field]: [fieldHints[reason] ?? message] } } : {}) }
}

/** A body limit in MiB as the refusal says it: 1 for the API's JSON bodies. */
const mebibytes = (bytes: number): string => String(Math.round((bytes / (1024 * 1024)) * 100) / 100)

const ADMIN_TOKEN_REQUIRED = "A valid admin bearer token is required."

/** "25.00 USD": an amount an error carries, in its currency's own digits. */
const moneyText = (error: { readonly amount: bigint; readonly exponent: number; readonly currency: string }): string =>
  `${toCurrencyString(Amount(error.amount), error.exponent)} ${error.currency}`

/** A defect or a store failure: the caller learns nothing of it but that it was not their fault. */
export const SERVER_ERROR: ErrorDescription = { status: 500, message: "Server error.", errorCode: "SERVER_ERROR" }

/**
 * The store is out (unreachable, restarting, or a SQLite file locked past its busy timeout): nothing
 * was written, so the identical call may be sent again. Two seconds covers a PostgreSQL fast restart
 * within the client's three retries (docs/decisions.md).
 */
export const STORE_UNAVAILABLE: ErrorDescription = {
  status: 503,
  message: "The service is temporarily unavailable; retry shortly.",
  errorCode: "SERVICE_UNAVAILABLE",
  headers: { "retry-after": "2" }
}

/**
 * Every failure the API can answer, in one table: domain errors carry no HTTP status of their
 * own, so this is the only place that decides what a caller sees.
 */
export const describeError = (error: ApiError): ErrorDescription => {
  switch (error._tag) {
    case "AuthenticationFailed":
      return { status: 401, errorCode: "INVALID_CREDENTIALS", ...credentialRefusal(error.reason) }
    case "MerchantPendingApproval":
      return { status: 403, message: "Merchant Pending Approval", errorCode: "MERCHANT_NOT_APPROVED" }
    case "MerchantSuspended":
      return { status: 403, message: "Merchant account suspended.", errorCode: "MERCHANT_SUSPENDED" }
    case "MerchantBlocked":
      return { status: 403, message: `Merchant account is ${String(error.status)}.`, errorCode: "MERCHANT_BLOCKED" }
    case "AdminUnauthorized":
      return { status: 401, message: ADMIN_TOKEN_REQUIRED, errorCode: "UNAUTHORIZED" }
    case "ValidationFailed":
      return {
        status: 422,
        message: "The given data was invalid.",
        errorCode: String(error.code),
        errors: error.errors
      }
    case "MalformedJson":
      return {
        status: 400,
        message: "The request body is not valid JSON.",
        errorCode: "MALFORMED_JSON",
        errors: { body: [String(error.detail)] }
      }
    case "BodyTooLarge":
      // The rest of the upload is drained before this goes out; the connection then ends, as nothing
      // obliges a client that sent too much to be kept.
      return {
        status: 413,
        message: `The request body is larger than ${mebibytes(error.limitBytes)} MiB.`,
        errorCode: "PAYLOAD_TOO_LARGE",
        headers: { connection: "close" }
      }
    case "RouteNotFound":
      return { status: 404, message: "Not found.", errorCode: "NOT_FOUND" }
    case "MethodNotAllowed": {
      const allow = error.allow.join(", ")
      return { status: 405, message: `This path answers ${allow} only.`, errorCode: "METHOD_NOT_ALLOWED", headers: { allow } }
    }
    case "UnsupportedMediaType":
      return {
        status: 415,
        message: `The request body must be sent as ${error.expected ?? "application/json"}.`,
        errorCode: "UNSUPPORTED_MEDIA_TYPE",
        errors: { "Content-Type": [`The Content-Type header must be ${error.expected ?? "application/json"}.`] }
      }
    case "ResourceNotFound":
      return { status: 404, message: `${String(error.resource)} not found.`, errorCode: "NOT_FOUND" }
    case "MerchantKeyTaken":
      // Freshly generated keys collided with stored ones: nothing the caller did, and a retry draws new ones.
      return {
        status: 503,
        message: "The credentials could not be issued this time; try again.",
        errorCode: "SERVICE_UNAVAILABLE",
        headers: { "retry-after": "1" }
      }
    case "MerchantNotFound":
      return { status: 404, message: "Merchant not found.", errorCode: "NOT_FOUND" }
    case "MerchantUserNotFound":
      return { status: 404, message: "User not found.", errorCode: "NOT_FOUND" }
    case "MerchantUserEmailTaken":
      // Emails are unique across every merchant: one sign-in names one merchant.
      return {
        status: 409,
        message: "A dashboard user with this email already exists.",
        errorCode: "USER_EXISTS",
        errors: { email: ["This email already signs in to a merchant's dashboard."] }
      }
    case "LastOwner":
      return {
        status: 409,
        message: "This is the merchant's last active owner, who cannot be disabled or deleted.",
        errorCode: "INVALID_STATE",
        errors: { user_id: ["Invite another owner and let them set a password first: a merchant needs an owner to manage its account."] }
      }
    case "WalletNotFound":
      return { status: 404, message: "Wallet not found.", errorCode: "NOT_FOUND" }
    case "GatewayNotFound":
      return { status: 404, message: "Gateway not found.", errorCode: "NOT_FOUND" }
    case "GatewayCodeTaken":
      return { status: 409, message: `A gateway with the code ${String(error.code)} already exists.`, errorCode: "GATEWAY_EXISTS" }
    case "WalletExists":
      return { status: 409, message: "A wallet for this currency and environment already exists.", errorCode: "WALLET_EXISTS" }
    case "InsufficientBalance":
      return { status: 422, message: "The wallet balance cannot go below zero.", errorCode: "INSUFFICIENT_BALANCE" }
    case "BalanceOverflow":
      return { status: 422, message: "The wallet balance would exceed its maximum.", errorCode: "INVALID_AMOUNT" }
    case "EventStreamLimitReached":
      return {
        status: 429,
        message: `This merchant already has ${String(error.limit)} event streams open in this environment: stop one (another listen) or wait for one to end, then try again.`,
        errorCode: "RATE_LIMITED",
        headers: { "retry-after": String(error.retryAfterSeconds) }
      }
    case "RateLimited":
      return {
        status: 429,
        message: "Too many requests.",
        errorCode: "RATE_LIMITED",
        headers: { "retry-after": String(error.retryAfterSeconds) }
      }
    case "AuthenticationThrottled": {
      // The refusal the request would have had, kept: a misconfigured client is told what to fix.
      const { message, errors } = error.reason === "admin_token" ? { message: ADMIN_TOKEN_REQUIRED, errors: undefined } : credentialRefusal(error.reason)
      return {
        status: 429,
        message: `Too many failed authentications; the last failure: ${message}`,
        errorCode: "RATE_LIMITED",
        ...(errors !== undefined ? { errors } : {}),
        headers: { "retry-after": String(error.retryAfterSeconds) }
      }
    }
    case "IdempotencyKeyReused":
      return {
        status: 409,
        message: "This Idempotency-Key was already used with different parameters.",
        errorCode: "IDEMPOTENCY_CONFLICT"
      }
    case "IdempotentRequestInFlight":
      return {
        status: 409,
        message: "A request with this Idempotency-Key is still being processed.",
        errorCode: "IDEMPOTENCY_CONFLICT",
        headers: { "retry-after": String(error.retryAfterSeconds) }
      }
    case "PaymentNotFound":
      return { status: 404, message: "Transaction not found.", errorCode: "NOT_FOUND" }
    case "PaymentAlreadyFinal":
      return { status: 409, message: "This payment has already been finalized.", errorCode: "INVALID_STATE" }
    case "CurrencyNotEnabled":
      return { status: 422, message: "Currency is not enabled for this merchant.", errorCode: "INVALID_CURRENCY" }
    case "ReceiverWalletUnavailable":
      return { status: 422, message: "Receiver wallet for this currency is not available.", errorCode: "WALLET_UNAVAILABLE" }
    case "DuplicateReference":
      return {
        status: 409,
        message: "Transaction reference already exists.",
        errorCode: "DUPLICATE_REFERENCE",
        errors: { ref_trx: ["A payment with this reference is pending or completed."] }
      }
    case "DeliveryInFlight":
      return {
        status: 409,
        message: "This delivery is being sent right now; try again shortly.",
        errorCode: "INVALID_STATE",
        headers: { "retry-after": "5" }
      }
    case "PaymentNotRefundable":
      return { status: 422, message: "Only completed payments can be refunded", errorCode: "INVALID_STATE" }
    case "PaymentFullyRefunded":
      return { status: 422, message: "This payment has already been fully refunded", errorCode: "INVALID_STATE" }
    case "RefundExceedsBalance":
      return {
        status: 422,
        message: "Refund amount exceeds the refundable balance",
        errorCode: "INVALID_AMOUNT",
        errors: { remaining_refund: [`The refundable balance is ${moneyText(error)}.`] }
      }
    case "RefundReferenceConflict":
      return {
        status: 409,
        message: "This refund reference was already used for a refund of another amount.",
        errorCode: "DUPLICATE_REFERENCE",
        errors: { ref_refund: [`The reference ${String(error.refRefund)} already refunded this payment: send its amount to see that refund, or use a new reference.`] }
      }
    case "PartialRefundUnsupported":
      return {
        status: 422,
        message: "The given data was invalid.",
        errorCode: "VALIDATION_FAILED",
        errors: { amount: [`This payment's gateway can only refund the whole payment: ${moneyText(error)}.`] }
      }
    case "WalletInsufficientForRefund":
      return {
        status: 422,
        message: "Merchant wallet balance is insufficient to process this refund",
        errorCode: "INSUFFICIENT_BALANCE",
        errors: { wallet_balance: [`The wallet's available balance is ${moneyText(error)}.`] }
      }
    case "PayoutDestinationLimitReached":
      return {
        status: 422,
        message: "The payout destination limit is reached.",
        errorCode: "LIMIT_REACHED",
        errors: { payout_destinations: [`A merchant keeps at most ${String(error.limit)} payout destinations in each environment: delete one before adding another.`] }
      }
    case "WebhookEndpointLimitReached":
      return {
        status: 422,
        message: "The webhook endpoint limit is reached.",
        errorCode: "LIMIT_REACHED",
        errors: { webhook_endpoints: [`A merchant keeps at most ${String(error.limit)} webhook endpoints in each environment: delete one before adding another.`] }
      }
    case "WebhookEndpointNotFound":
      return { status: 404, message: "Webhook endpoint not found.", errorCode: "NOT_FOUND" }
    case "ReconciliationReportNotFound":
      return { status: 404, message: "Reconciliation report not found.", errorCode: "NOT_FOUND" }
    case "SettlementReportUnsupported":
      return {
        status: 422,
        message: "The gateway cannot give a settlement report.",
        errorCode: "VALIDATION_FAILED",
        errors: { gateway: [`The ${String(error.gateway)} gateway's plugin has no settlementReport: upload its settlement CSV instead.`] }
      }
    case "PayoutNotFound":
      return { status: 404, message: "Payout not found.", errorCode: "NOT_FOUND" }
    case "PayoutExceedsBalance":
      return {
        status: 422,
        message: "Payout amount exceeds the available balance",
        errorCode: "INVALID_AMOUNT",
        errors: { available_balance: [`The available balance is ${moneyText(error)}.`] }
      }
    case "PayoutTransitionRefused":
      return { status: 409, message: String(error.message), errorCode: "INVALID_STATE", errors: { status: [`The payout is ${String(error.status)}.`] } }
    case "PlatformBankAccountMissing":
      return {
        status: 409,
        message: "The platform's bank account is not set: PUT /admin/v1/payouts/bank-account before asking for a SEPA file.",
        errorCode: "INVALID_STATE"
      }
    case "DisputeNotFound":
      return { status: 404, message: "Dispute not found.", errorCode: "NOT_FOUND" }
    case "DisputeTransitionRefused":
      return { status: 409, message: String(error.message), errorCode: "INVALID_STATE", errors: { status: [`The dispute is ${String(error.status)}.`] } }
    case "DisputeEvidenceOverdue":
      return { status: 409, message: String(error.message), errorCode: "INVALID_STATE", errors: { evidence_due_by: ["The deadline for evidence has passed."] } }
    case "DisputeEvidenceRefused":
      return { status: 422, message: "The gateway refused the evidence.", errorCode: "VALIDATION_FAILED", errors: { evidence: [String(error.message)] } }
    case "DisputeRefused":
      return { status: 422, message: String(error.message), errorCode: "INVALID_STATE" }
    case "RefundHeldByDisputes":
      return {
        status: 422,
        message: "Refund amount exceeds the refundable balance",
        errorCode: "INVALID_AMOUNT",
        errors: { remaining_refund: [`The refundable balance is ${moneyText(error)}: ${moneyText({ ...error, amount: error.held })} of this payment is held by disputes.`] }
      }
    case "SubscriptionNotFound":
      return { status: 404, message: "Subscription not found.", errorCode: "NOT_FOUND" }
    case "InvoiceNotFound":
      return { status: 404, message: "Invoice not found.", errorCode: "NOT_FOUND" }
    case "InvoiceNotPaid":
      return {
        status: 409,
        message: "The invoice is not paid: only a paid invoice has a receipt.",
        errorCode: "INVALID_STATE",
        errors: { kind: [`The invoice is ${String(error.status)}; ask for kind=invoice instead.`] }
      }
    case "SubscriptionTransitionRefused":
      return { status: 409, message: String(error.message), errorCode: "INVALID_STATE", errors: { status: [`The subscription is ${String(error.status)}.`] } }
    case "ExternalReferenceTaken":
      return {
        status: 409,
        message: "Transaction reference already exists.",
        errorCode: "DUPLICATE_REFERENCE",
        errors: { external_reference: [`A subscription with the reference ${String(error.externalReference)} already exists in this environment.`] }
      }
    case "InvoiceSequenceTaken":
      // Two writers raced to open one invoice: nothing the caller did; the identical retry answers.
      return { status: 503, message: "The invoice could not be created this time; retry the identical request.", errorCode: "SERVICE_UNAVAILABLE", headers: { "retry-after": "1" } }
    case "SchedulerBusy":
      return { status: 409, message: "A scheduler run is in progress; try again shortly.", errorCode: "INVALID_STATE", headers: { "retry-after": "5" } }
    case "TestClockNotFound":
      return { status: 404, message: "Test clock not found.", errorCode: "NOT_FOUND" }
    case "TestClockSandboxOnly":
      return {
        status: 422,
        message: "Test clocks are sandbox only.",
        errorCode: "VALIDATION_FAILED",
        errors: { "X-Environment": ["Send X-Environment: sandbox: production objects always live on real time."] }
      }
    case "TestClockLimitReached":
      return {
        status: 422,
        message: error.what === "test_clocks" ? "The test clock limit is reached." : "The test clock's subscription limit is reached.",
        errorCode: "LIMIT_REACHED",
        errors: error.what === "test_clocks"
          ? { test_clocks: [`A merchant keeps at most ${String(error.limit)} test clocks: delete one before adding another.`] }
          : { test_clock: [`A test clock holds at most ${String(error.limit)} subscriptions: use another clock.`] }
      }
    case "TestClockBusy":
      return { status: 409, message: "The test clock is being advanced; try again when it is ready.", errorCode: "INVALID_STATE", errors: { status: [`The test clock is ${String(error.status)}.`] } }
    case "NotificationTargetUnknown":
      return { status: 404, message: "No gateway takes notifications at this address.", errorCode: "NOT_FOUND" }
    case "PluginCallFailed":
    case "UnknownGatewayPlugin":
      // The gateway retries on a 5xx: by then the plugin (or the store) may answer.
      return { status: 503, message: "The gateway plugin could not handle this now; retry later.", errorCode: "SERVICE_UNAVAILABLE", headers: { "retry-after": "60" } }
    case "StoreUnavailable":
      return STORE_UNAVAILABLE
    case "StorageError":
      return error.unavailable === true ? STORE_UNAVAILABLE : SERVER_ERROR
  }
}
