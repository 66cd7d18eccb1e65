import type { Merchant } from "../merchants/merchant.js"
import { toJsonNumberText } from "../money/format.js"
import type { Instant } from "../shared/instant.js"
import { toSeconds } from "../shared/instant.js"
import { ExactNumber, renderJson } from "../shared/json-text.js"
import type { NewDelivery } from "../webhooks/delivery.js"
import { outcomeOf, type Payment, type PaymentOutcome } from "./payment.js"

/** The IPN status of a finished payment (docs/decisions.md): completed, or why it failed. */
export type PaymentEventStatus = "completed" | "failed" | "cancelled" | "expired"

/** The event's word for each outcome: the one place the IPN vocabulary meets the domain's. */
const EVENT_STATUS: Readonly<Record<PaymentOutcome, PaymentEventStatus>> = {
  paid: "completed",
  declined: "failed",
  cancelled: "cancelled",
  expired: "expired"
}

export const eventStatusOf = (payment: Payment): PaymentEventStatus | undefined => {
  const outcome = outcomeOf(payment)
  return outcome === undefined ? undefined : EVENT_STATUS[outcome]
}

const MESSAGES: Record<PaymentEventStatus, string> = {
  completed: "Payment completed successfully.",
  failed: "Payment failed.",
  cancelled: "Payment was cancelled.",
  expired: "Payment session expired."
}

/** What a payment echoes of its request, in the initiate response (2.2) and in its events (6.2). */
export const echoedFields = (payment: Payment) => ({
  ref_trx: payment.refTrx,
  description: payment.description ?? "",
  ipn_url: payment.ipnUrl,
  cancel_redirect: payment.cancelRedirect,
  success_redirect: payment.successRedirect,
  customer_name: payment.customerName ?? "",
  customer_email: payment.customerEmail ?? ""
})

/** The body of spec 6.2, rendered once to the exact text that is signed and sent on every attempt. */
export const paymentEventBody = (payment: Payment, status: PaymentEventStatus, merchant: Merchant, at: Instant): string =>
  renderJson({
    event: `payment.${status}`,
    status,
    message: MESSAGES[status],
    timestamp: toSeconds(at),
    data: {
      ...echoedFields(payment),
      merchant_name: merchant.name,
      amount: new ExactNumber(toJsonNumberText(payment.amount)),
      currency_code: payment.currency,
      environment: payment.environment,
      is_sandbox: payment.environment === "sandbox",
      trx_id: payment.trxId
    }
  })

/** The outbox row for a finished payment: signed with the environment's webhook secret (spec 6.1). */
export const paymentEventDelivery = (
  eventId: string,
  payment: Payment,
  merchant: Merchant,
  at: Instant
): NewDelivery | undefined => {
  const status = eventStatusOf(payment)
  if (status === undefined) return undefined
  return {
    id: eventId,
    merchantId: payment.merchantId,
    environment: payment.environment,
    event: `payment.${status}`,
    url: payment.ipnUrl,
    body: paymentEventBody(payment, status, merchant, at),
    signingSecret: "webhook_secret",
    objectId: payment.trxId,
    nextAttemptAt: at
  }
}
