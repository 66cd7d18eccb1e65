import type Stripe from "stripe"
import type { CallTrace, DisputeEvidenceContext } from "../../../core/gateways/gateway-plugin.js"
import type { DisputeEvidenceReport } from "../../../core/gateways/plugin-disputes.js"
import type { StripeCheckoutConfig } from "./stripe-checkout-config.js"
import { StripeCallError, stripeCall } from "./stripe-errors.js"

/** Stripe's evidence has one field for a file nothing else describes; the kit's files carry no category. */
export const MAX_STRIPE_EVIDENCE_FILES = 1

const refused = (message: string): DisputeEvidenceReport => ({ status: "refused", message })

/**
 * The merchant's evidence on a Stripe dispute, submitted at once: the text as `uncategorized_text`, a
 * file uploaded to Stripe (purpose dispute_evidence) and named as `uncategorized_file`. More files than
 * Stripe's one uncategorized field are refused before anything is sent; a refusal Stripe would repeat (a closed dispute, a file type it does not
 * take) is the merchant's to read; anything else (network, 5xx, a refused key) is thrown.
 */
export const submitStripeEvidence = async (
  context: DisputeEvidenceContext<StripeCheckoutConfig>,
  client: () => Promise<Stripe>,
  headers: (trace: CallTrace) => Stripe.RequestOptions
): Promise<DisputeEvidenceReport> => {
  const { config, gatewayDisputeId } = context
  // A dispute the kit simulated (sandbox) is unknown to Stripe: the evidence stays on record with it, as the sandbox gateway's does.
  if (gatewayDisputeId === null) return { status: "submitted" }
  if (context.files.length > MAX_STRIPE_EVIDENCE_FILES) {
    return refused("Stripe takes one uncategorized file per dispute: combine the documents into one PDF and send it again")
  }
  try {
    const stripe = await client()
    const fileIds: Array<string> = []
    for (const file of context.files) {
      const uploaded = await stripeCall(config, () =>
        stripe.files.create({
          purpose: "dispute_evidence",
          file: { data: Buffer.from(file.contentBase64, "base64"), name: file.name, type: "application/octet-stream" }
        }, headers(context)))
      fileIds.push(uploaded.id)
    }
    await stripeCall(config, () =>
      stripe.disputes.update(gatewayDisputeId, {
        evidence: { uncategorized_text: context.text, ...(fileIds[0] !== undefined ? { uncategorized_file: fileIds[0] } : {}) },
        metadata: { trx_id: context.trxId, dispute_id: context.disputeId },
        submit: true
      }, headers(context)))
    return { status: "submitted" }
  } catch (error) {
    if (error instanceof StripeCallError && error.permanent) return refused(`Stripe refused the evidence: ${error.message}`)
    throw error
  }
}
