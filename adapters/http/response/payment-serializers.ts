import type { Payment } from "../../../core/payments/payment.js"
import type { InitiatedPayment } from "../../../core/payments/initiate-payment.js"
import { ZERO } from "../../../core/money/amount.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { isFullyRefunded } from "../../../core/refunds/refund-math.js"
import type { CheckoutSession, Transaction } from "../contract/payment-resources.js"
import { jsonAmount } from "../contract/json-codec.js"

/** What a payment echoes of its request, in the initiate response (2.2) and in its events (6.2). Absent optional text is "". */
export const echoedFields = (payment: Payment) => ({
  ref_trx: payment.refTrx,
  description: payment.description ?? "",
  ipn_url: payment.ipnUrl,
  cancel_redirect: payment.cancelRedirect,
  success_redirect: payment.successRedirect,
  customer_name: payment.customerName ?? "",
  customer_email: payment.customerEmail ?? ""
})

/** Spec 2.2, plus `info.trx_id` (docs/decisions.md). Absent optional text is echoed as "". */
export const checkoutSessionJson = (initiated: InitiatedPayment, merchantName: string): typeof CheckoutSession.Type => {
  const { payment } = initiated
  return {
    payment_url: initiated.paymentUrl,
    info: {
      trx_id: payment.trxId,
      ...echoedFields(payment),
      merchant_id: payment.merchantId,
      merchant_name: merchantName,
      amount: jsonAmount(payment.amount),
      currency_code: payment.currency,
      environment: payment.environment,
      is_sandbox: payment.environment === "sandbox",
      allow_payment_methods: payment.allowPaymentMethods,
      merchant_payment_methods_restricted: initiated.restricted,
      merchant_payment_method_ids: initiated.eligible.map((gateway) => gateway.id),
      merchant_payment_method_codes: initiated.shown.map((gateway) => gateway.code)
    }
  }
}

/**
 * Spec 2.3. `amount` is the requested amount; fee and net are known once the payment succeeded
 * and are 0 before (nothing has been credited). Refund fields are always present.
 */
export const verifyJson = (payment: Payment): typeof Transaction.Type => ({
  status: payment.status,
  trx_id: payment.trxId,
  amount: jsonAmount(payment.amount),
  fee: jsonAmount(payment.fee ?? ZERO),
  currency: payment.currency,
  net_amount: jsonAmount(payment.net ?? ZERO),
  customer: { name: payment.customerName ?? "", email: payment.customerEmail ?? "" },
  description: payment.description ?? "",
  created_at: toIsoString(payment.createdAt),
  updated_at: toIsoString(payment.updatedAt),
  refunded_amount: jsonAmount(payment.refundedAmount),
  fully_refunded: payment.status === "success" && isFullyRefunded(payment.amount, payment.refundedAmount)
})
