import * as Schema from "effect/Schema"
import { PaymentStatus } from "../../../core/payments/payment.js"
import { Environment, HttpUrl, Money, PositiveId, Timestamp } from "./value-schemas.js"

/** The schemas of what a payment echoes of its request (spec 2.2 and 6.2; response/payment-serializers.ts echoedFields writes them); absent optional text is "". */
export const EchoedFields = {
  ref_trx: Schema.String,
  description: Schema.String,
  ipn_url: HttpUrl,
  cancel_redirect: HttpUrl,
  success_redirect: HttpUrl,
  customer_name: Schema.String,
  customer_email: Schema.String
}

/** Spec 2.2, plus `info.trx_id`. */
export const CheckoutSession = Schema.Struct({
  payment_url: HttpUrl.annotations({ description: "The signed, time-limited checkout link to send the customer to." }),
  info: Schema.Struct({
    trx_id: Schema.String,
    ...EchoedFields,
    merchant_id: PositiveId,
    merchant_name: Schema.String,
    amount: Money,
    currency_code: Schema.String,
    environment: Environment,
    is_sandbox: Schema.Boolean,
    allow_payment_methods: Schema.Array(Schema.String),
    merchant_payment_methods_restricted: Schema.Boolean,
    merchant_payment_method_ids: Schema.Array(PositiveId),
    merchant_payment_method_codes: Schema.Array(Schema.String)
  })
}).annotations({ identifier: "CheckoutSession", description: "A hosted checkout session (spec 2.2)." })

/** Spec 2.3: fee and net are 0 until the payment succeeded; the refund fields are always present. */
export const Transaction = Schema.Struct({
  status: PaymentStatus,
  trx_id: Schema.String,
  amount: Money,
  fee: Money,
  currency: Schema.String,
  net_amount: Money,
  customer: Schema.Struct({ name: Schema.String, email: Schema.String }),
  description: Schema.String,
  created_at: Timestamp,
  updated_at: Timestamp,
  refunded_amount: Money,
  fully_refunded: Schema.Boolean
}).annotations({ identifier: "Transaction", description: "A payment's latest state (spec 2.3)." })

/** Spec 2.4. */
export const RefundResult = Schema.Struct({
  status: Schema.Literal("success"),
  message: Schema.String,
  refund_trx_id: Schema.String,
  original_trx_id: Schema.String,
  refunded_amount: Money,
  total_refunded: Money,
  remaining_refund: Money,
  fully_refunded: Schema.Boolean,
  currency: Schema.String
}).annotations({ identifier: "RefundResult", description: "A refund recorded, or the one a ref_refund already made (spec 2.4)." })

/** Spec 2.7. */
export const SiteInfo = Schema.Struct({
  site_name: Schema.String,
  site_logo: HttpUrl,
  site_url: HttpUrl,
  gateway_name: Schema.String,
  gateway_description: Schema.String,
  features: Schema.Struct({
    ssl_secured: Schema.String,
    instant_processing: Schema.String,
    global_support: Schema.String,
    mobile_ready: Schema.String
  }),
  environments: Schema.Struct({ production: Schema.String, sandbox: Schema.String }),
  api_version: Schema.String,
  status: Schema.Literal("active")
}).annotations({ identifier: "SiteInfo", description: "Branding and environment labels (spec 2.7)." })

/** Spec 7.3: every error, whatever the route. */
export const ErrorBody = Schema.Struct({
  success: Schema.Literal(false),
  message: Schema.String,
  error_code: Schema.String,
  errors: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }).annotations({
    description: "Field (or header) name to its messages; empty when the failure names no field."
  }),
  timestamp: Timestamp,
  request_id: Schema.NullOr(Schema.String).annotations({
    description: "The request's X-Request-Id (an addition to spec 7.3): quote it to support; the merchant's request log lists the call under it."
  })
}).annotations({ identifier: "Error", description: "The error body of spec 7.3." })

export const Health = Schema.Struct({ status: Schema.Literal("ok") }).annotations({ identifier: "Health" })

export const Readiness = Schema.Union(
  Schema.Struct({ status: Schema.Literal("ready") }),
  Schema.Struct({ status: Schema.Literal("not_ready"), reason: Schema.String })
).annotations({ identifier: "Readiness" })
