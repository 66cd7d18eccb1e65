import { Environment } from "../../core/shared/environment.js"
import { Amount } from "../../core/money/amount.js"
import { FailureReason, PaymentStatus, type Payment } from "../../core/payments/payment.js"
import { GatewayId, MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { int64, intList, literal, nullable, readByHand, type RowOf, safeInt, stringList, table, text } from "./table.js"

/**
 * The payments table (migrations/0001_initial.ts and after), column by column. Read by hand, each
 * column by its rule: payment reads are the hottest there are (verify-payment, checkout pages).
 */
export const paymentsTable = readByHand(table("payments", {
  trx_id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  ref_trx: text,
  amount: int64,
  currency: text,
  status: literal(PaymentStatus),
  failure_reason: nullable(literal(FailureReason)),
  fee: nullable(int64),
  net: nullable(int64),
  refunded_amount: int64,
  description: nullable(text),
  customer_name: nullable(text),
  customer_email: nullable(text),
  ipn_url: text,
  success_redirect: text,
  cancel_redirect: text,
  allow_payment_methods: stringList,
  gateway_ids: intList,
  gateway_id: nullable(safeInt),
  invoice_id: nullable(text),
  expires_at: int64,
  completed_at: nullable(int64),
  created_at: int64,
  updated_at: int64
}), (c) => (row) => ({
  trx_id: c.trx_id.read(row["trx_id"]),
  merchant_id: c.merchant_id.read(row["merchant_id"]),
  environment: c.environment.read(row["environment"]),
  ref_trx: c.ref_trx.read(row["ref_trx"]),
  amount: c.amount.read(row["amount"]),
  currency: c.currency.read(row["currency"]),
  status: c.status.read(row["status"]),
  failure_reason: c.failure_reason.read(row["failure_reason"]),
  fee: c.fee.read(row["fee"]),
  net: c.net.read(row["net"]),
  refunded_amount: c.refunded_amount.read(row["refunded_amount"]),
  description: c.description.read(row["description"]),
  customer_name: c.customer_name.read(row["customer_name"]),
  customer_email: c.customer_email.read(row["customer_email"]),
  ipn_url: c.ipn_url.read(row["ipn_url"]),
  success_redirect: c.success_redirect.read(row["success_redirect"]),
  cancel_redirect: c.cancel_redirect.read(row["cancel_redirect"]),
  allow_payment_methods: c.allow_payment_methods.read(row["allow_payment_methods"]),
  gateway_ids: c.gateway_ids.read(row["gateway_ids"]),
  gateway_id: c.gateway_id.read(row["gateway_id"]),
  invoice_id: c.invoice_id.read(row["invoice_id"]),
  expires_at: c.expires_at.read(row["expires_at"]),
  completed_at: c.completed_at.read(row["completed_at"]),
  created_at: c.created_at.read(row["created_at"]),
  updated_at: c.updated_at.read(row["updated_at"])
}))

export type PaymentRow = RowOf<typeof paymentsTable.columns>

const optionalAmount = (value: bigint | null) => (value === null ? null : Amount(value))

export const toPayment = (row: PaymentRow): Payment => ({
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
