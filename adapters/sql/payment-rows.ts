import * as Schema from "effect/Schema"
import { Environment } from "../../core/shared/environment.js"
import { Amount } from "../../core/money/amount.js"
import { FailureReason, PaymentStatus, type Payment } from "../../core/payments/payment.js"
import { GatewayId, MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { Int64, IntList, NullableInt64, NullableString, SafeInt, StringList } from "./columns.js"

export const PaymentRow = Schema.Struct({
  trx_id: Schema.String,
  merchant_id: SafeInt,
  environment: Environment,
  ref_trx: Schema.String,
  amount: Int64,
  currency: Schema.String,
  status: PaymentStatus,
  failure_reason: Schema.NullOr(FailureReason),
  fee: NullableInt64,
  net: NullableInt64,
  refunded_amount: Int64,
  description: NullableString,
  customer_name: NullableString,
  customer_email: NullableString,
  ipn_url: Schema.String,
  success_redirect: Schema.String,
  cancel_redirect: Schema.String,
  allow_payment_methods: StringList,
  gateway_ids: IntList,
  gateway_id: Schema.NullOr(SafeInt),
  invoice_id: NullableString,
  expires_at: Int64,
  completed_at: NullableInt64,
  created_at: Int64,
  updated_at: Int64
})

const optionalAmount = (value: bigint | null) => (value === null ? null : Amount(value))

export const toPayment = (row: typeof PaymentRow.Type): Payment => ({
  trxId: row.trx_id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  refTrx: row.ref_trx,
  amount: Amount(row.amount),
  currency: row.currency,
  status: row.status,
  failureReason: row.failure_reason,
  fee: optionalAmount(row.fee),
  net: optionalAmount(row.net),
  refundedAmount: Amount(row.refunded_amount),
  description: row.description,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  ipnUrl: row.ipn_url,
  successRedirect: row.success_redirect,
  cancelRedirect: row.cancel_redirect,
  allowPaymentMethods: row.allow_payment_methods,
  gatewayIds: row.gateway_ids.map(GatewayId),
  gatewayId: row.gateway_id === null ? null : GatewayId(row.gateway_id),
  invoiceId: row.invoice_id,
  expiresAt: Instant(row.expires_at),
  completedAt: row.completed_at === null ? null : Instant(row.completed_at),
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})
