import type Stripe from "stripe"
import type { RefundReport } from "../../../core/gateways/gateway-plugin.js"

/**
 * Stripe's refund statuses as the kit's: `requires_action` waits on the customer (bank details for
 * some methods), so it is still pending; `canceled` means no money went back.
 */
export const reportOfRefund = (refund: Stripe.Refund): RefundReport => {
  switch (refund.status) {
    case "succeeded":
      return { status: "succeeded", gatewayRefundReference: refund.id }
    case "failed":
      return {
        status: "failed",
        gatewayRefundReference: refund.id,
        message: refund.failure_reason !== undefined && refund.failure_reason !== null
          ? `Stripe could not refund the payment: ${refund.failure_reason}`
          : "Stripe could not refund the payment"
      }
    case "canceled":
      return { status: "failed", gatewayRefundReference: refund.id, message: "the refund was canceled at Stripe" }
    default:
      return { status: "pending", gatewayRefundReference: refund.id }
  }
}
