import * as Schema from "effect/Schema"
import { MerchantStatus } from "../../../core/merchants/merchant.js"
import { GatewayType } from "../../../core/gateways/gateway.js"
import { FailureReason, PaymentStatus } from "../../../core/payments/payment.js"
import { DeliveryStatus } from "../../../core/webhooks/delivery.js"
import { IpnJsonStyle, IpnSignatureFormat } from "../../../core/webhooks/ipn-compatibility.js"
import { listOf, pageOf } from "./envelopes.js"
import { Environment, HttpUrl, Integer, Money, NullableTimestamp, PositiveId, Timestamp } from "./value-schemas.js"

export const Merchant = Schema.Struct({
  id: PositiveId,
  name: Schema.String,
  status: MerchantStatus,
  ipn_signature_format: IpnSignatureFormat,
  ipn_json_style: IpnJsonStyle,
  fee_percent: Money,
  fee_fixed: Money,
  dispute_fee: Money,
  created_at: Timestamp
}).annotations({ identifier: "Merchant" })

export const MerchantPage = pageOf(Merchant, "MerchantPage")

/** Shown once, when issued: the API key is stored hashed and the secrets sealed. */
export const IssuedCredentials = Schema.Struct({
  environment: Environment,
  merchant_key: Schema.String,
  api_key: Schema.String,
  client_secret: Schema.String,
  webhook_secret: Schema.String,
  previous_valid_until: NullableTimestamp.annotations({
    description: "When the replaced set stops working (an overlap was asked for); null when it stopped at once."
  })
}).annotations({ identifier: "IssuedCredentials" })

export const EndedCredentialOverlap = Schema.Struct({
  environment: Environment,
  destroyed: Integer.annotations({ description: "How many replaced sets stopped working and were destroyed." })
}).annotations({ identifier: "EndedCredentialOverlap" })

export const MerchantCurrencies = Schema.Struct({ merchant_id: PositiveId, currency_codes: Schema.Array(Schema.String) })
  .annotations({ identifier: "MerchantCurrencies" })

export const MerchantGateways = Schema.Struct({ merchant_id: PositiveId, gateway_ids: Schema.Array(PositiveId) })
  .annotations({ identifier: "MerchantGateways" })

export const Wallet = Schema.Struct({
  id: PositiveId,
  merchant_id: PositiveId,
  currency_code: Schema.String,
  environment: Environment,
  balance: Money,
  active: Schema.Boolean
}).annotations({ identifier: "Wallet" })

export const WalletList = listOf(Wallet, "WalletList")

export const Adjustment = Schema.Struct({
  id: PositiveId,
  wallet_id: PositiveId,
  currency_code: Schema.String,
  amount: Money,
  balance: Money,
  reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotations({ identifier: "WalletAdjustment" })

/** The plugin's config is never shown: it may hold the gateway's credentials. */
export const Gateway = Schema.Struct({
  id: PositiveId,
  plugin: Schema.String,
  code: Schema.String,
  name: Schema.String,
  currency_code: Schema.String,
  method: Schema.String,
  type: GatewayType,
  active: Schema.Boolean
}).annotations({ identifier: "Gateway" })

export const GatewayList = listOf(Gateway, "GatewayList")

export const Settings = Schema.Struct({
  site_name: Schema.String,
  site_logo: HttpUrl,
  site_url: HttpUrl,
  gateway_name: Schema.String,
  gateway_description: Schema.String,
  signature_required: Schema.Boolean,
  signature_tolerance_seconds: Integer,
  rate_limit_per_minute: Integer
}).annotations({ identifier: "Settings" })

export const ClockTime = Schema.Struct({ now: Timestamp }).annotations({ identifier: "ClockTime" })

export const SchedulerReport = Schema.Struct({
  data: Schema.Struct({
    processed: Integer,
    started: Integer,
    past_due: Integer,
    cancelled: Integer,
    unchanged: Integer,
    failed: Integer
  })
}).annotations({ identifier: "SchedulerReport" })

export const MoneyOutReport = Schema.Struct({
  data: Schema.Struct({
    reserves_released: Integer,
    automatic_payouts: Integer
  })
}).annotations({ identifier: "MoneyOutReport" })

export const WebhookDelivery = Schema.Struct({
  id: Schema.String,
  merchant_id: PositiveId,
  environment: Environment,
  event: Schema.String,
  url: HttpUrl,
  status: DeliveryStatus,
  attempts: Integer,
  last_status_code: Schema.NullOr(Integer),
  last_error: Schema.NullOr(Schema.String),
  next_attempt_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp
}).annotations({ identifier: "WebhookDelivery" })

export const WebhookDeliveryList = listOf(WebhookDelivery, "WebhookDeliveryList")

export const DeliveryAttempt = Schema.Struct({
  attempt: Integer,
  at: Timestamp,
  status_code: Schema.NullOr(Integer),
  error: Schema.NullOr(Schema.String),
  duration_ms: Integer
}).annotations({ identifier: "WebhookDeliveryAttempt" })

export const WebhookDeliveryDetail = Schema.Struct({
  ...WebhookDelivery.fields,
  attempt_log: Schema.Array(DeliveryAttempt)
}).annotations({ identifier: "WebhookDeliveryDetail" })

export const FailingWebhookTarget = Schema.Struct({
  merchant_id: PositiveId,
  environment: Environment,
  target: Schema.String,
  failing_since: Timestamp,
  paused_at: NullableTimestamp
}).annotations({ identifier: "FailingWebhookTarget" })

export const FailingWebhookTargetList = listOf(FailingWebhookTarget, "FailingWebhookTargetList")

export const PaymentFlag = Schema.Struct({
  reason: Schema.Literal("amount_mismatch", "currency_mismatch", "reported_after_end"),
  detail: Schema.String,
  gateway_id: Schema.NullOr(PositiveId),
  created_at: Timestamp
}).annotations({ identifier: "PaymentFlag" })

export const FlaggedPaymentList = listOf(
  Schema.Struct({ trx_id: Schema.String, ...PaymentFlag.fields }).annotations({ identifier: "FlaggedPayment" }),
  "FlaggedPaymentList"
)

export const CheckoutAttempt = Schema.Struct({
  gateway_id: PositiveId,
  gateway_reference: Schema.NullOr(Schema.String),
  began_at: Timestamp
}).annotations({ identifier: "CheckoutAttempt" })

/** Null for a refund that moved the wallet only (its gateway cannot refund). */
export const GatewayRefundState = Schema.Struct({
  status: Schema.Literal("succeeded", "pending", "failed"),
  attempts: Integer,
  gateway_reference: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String),
  next_attempt_at: NullableTimestamp
}).annotations({ identifier: "GatewayRefundState" })

export const PaymentRefund = Schema.Struct({
  refund_trx_id: Schema.String,
  amount: Money,
  reason: Schema.NullOr(Schema.String),
  ref_refund: Schema.NullOr(Schema.String),
  created_at: Timestamp,
  gateway_refund: Schema.NullOr(GatewayRefundState)
}).annotations({ identifier: "PaymentRefund" })

/** Fee and net are null until the payment succeeded: what was charged, not a 0 stand-in. */
export const PaymentRecord = Schema.Struct({
  trx_id: Schema.String,
  merchant_id: PositiveId,
  environment: Environment,
  ref_trx: Schema.String,
  status: PaymentStatus,
  failure_reason: Schema.NullOr(FailureReason),
  amount: Money,
  currency: Schema.String,
  fee: Schema.NullOr(Money),
  net: Schema.NullOr(Money),
  refunded_amount: Money,
  gateway_id: Schema.NullOr(PositiveId),
  created_at: Timestamp,
  completed_at: NullableTimestamp
})

export const PaymentView = Schema.Struct({
  data: Schema.Struct({
    ...PaymentRecord.fields,
    flags: Schema.Array(PaymentFlag),
    checkout_attempts: Schema.Array(CheckoutAttempt),
    refunds: Schema.Array(PaymentRefund)
  }).annotations({ identifier: "AdminPayment" })
}).annotations({ identifier: "AdminPaymentResponse" })
