import type Stripe from "stripe"
import type { NotificationReport } from "../../../core/gateways/gateway-plugin.js"
import type { DisputeReport } from "../../../core/gateways/plugin-disputes.js"
import { fromStripeMinor } from "./stripe-amounts.js"

export const DISPUTE_EVENTS = new Set(["charge.dispute.created", "charge.dispute.updated", "charge.dispute.closed"])

const EVENT: Readonly<Record<string, DisputeReport["event"]>> = {
  "charge.dispute.created": "opened",
  "charge.dispute.updated": "updated",
  "charge.dispute.closed": "closed"
}

/** Stripe's dispute statuses as the kit's stages; the "warning_" ones (inquiries) read as their plain kin. */
const stageOf = (status: string): "needs_response" | "under_review" | undefined =>
  status === "needs_response" || status === "warning_needs_response"
    ? "needs_response"
    : status === "under_review" || status === "warning_under_review"
    ? "under_review"
    : undefined

/** Acknowledged with a 200 so Stripe stops sending it: nothing the kit needs. */
const IGNORED: NotificationReport = { ignore: true }

/**
 * A verified charge.dispute.* event as the kit's dispute report. The dispute names the PaymentIntent,
 * not the kit's payment: `trxIdOf` asks Stripe for the PaymentIntent, whose metadata beginCheckout
 * wrote. A dispute on a charge the kit did not make, or closed otherwise than won or lost (an inquiry
 * closed with a warning: no money moved), is acknowledged and ignored.
 */
export const reportOfDispute = async (
  type: string,
  dispute: Stripe.Dispute,
  trxIdOf: (paymentIntent: string) => Promise<string | undefined>
): Promise<NotificationReport> => {
  const event = EVENT[type]
  const paymentIntent = typeof dispute.payment_intent === "string" ? dispute.payment_intent : dispute.payment_intent?.id
  if (event === undefined || paymentIntent === undefined) return IGNORED
  const outcome: "won" | "lost" | undefined = dispute.status === "won" ? "won" : dispute.status === "lost" ? "lost" : undefined
  if (event === "closed" && outcome === undefined) return IGNORED
  const trxId = await trxIdOf(paymentIntent)
  if (trxId === undefined) return IGNORED
  const currency = dispute.currency.toUpperCase()
  const dueBy = dispute.evidence_details?.due_by
  const stage = stageOf(dispute.status)
  return {
    dispute: {
      event,
      gatewayDisputeId: dispute.id,
      trxId,
      amount: fromStripeMinor(dispute.amount, currency),
      currency,
      reason: dispute.reason,
      ...(typeof dueBy === "number" ? { evidenceDueBy: new Date(dueBy * 1000).toISOString() } : {}),
      ...(stage !== undefined ? { status: stage } : {}),
      ...(outcome !== undefined ? { outcome } : {})
    }
  }
}
