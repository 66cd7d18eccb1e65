import type { Amount } from "../money/amount.js"
import { toJsonNumberText } from "../money/format.js"
import type { Payment } from "../payments/payment.js"
import type { Instant } from "../shared/instant.js"
import { toSeconds } from "../shared/instant.js"
import { ExactNumber, renderJson } from "../shared/json-text.js"
import type { NewDelivery } from "../webhooks/delivery.js"
import { leftFullyRefunded, type Refund } from "./refund.js"

const exact = (amount: Amount) => new ExactNumber(toJsonNumberText(amount))

/** The refund event of spec 6.3, signed with the environment's API secret, to the payment's ipn_url. */
export const refundEventDelivery = (eventId: string, payment: Payment, refund: Refund, at: Instant): NewDelivery => ({
  id: eventId,
  merchantId: payment.merchantId,
  environment: payment.environment,
  event: "payment.refunded",
  url: payment.ipnUrl,
  signingSecret: "client_secret",
  // A refund changes its payment: the payment is the object, so its events stay in one order.
  objectId: payment.trxId,
  nextAttemptAt: at,
  body: renderJson({
    event: "payment.refunded",
    status: "refunded",
    message: "Refund processed successfully.",
    timestamp: toSeconds(at),
    data: {
      original_trx_id: payment.trxId,
      refund_trx_id: refund.refundTrxId,
      ref_trx: payment.refTrx,
      ref_refund: refund.refRefund ?? "",
      refunded_amount: exact(refund.amount),
      total_refunded: exact(refund.totalRefunded),
      remaining_refund: exact(refund.remainingRefund),
      fully_refunded: leftFullyRefunded(refund),
      currency: refund.currency
    }
  })
})
