import type { Dispute } from "../../../core/disputes/dispute.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { jsonAmount } from "../contract/json-codec.js"

/** A dispute as the merchant API and the admin API answer it, and as its events carry it: the evidence's files by name and size, never their bytes. */
export const disputeJson = (dispute: Dispute) => ({
  id: dispute.id,
  status: dispute.status,
  trx_id: dispute.paymentTrxId,
  amount: jsonAmount(dispute.amount),
  fee: jsonAmount(dispute.fee),
  currency: dispute.currency,
  reason: dispute.reason,
  environment: dispute.environment,
  evidence_due_by: toIsoString(dispute.evidenceDueBy),
  evidence: dispute.evidenceText === null
    ? null
    : { text: dispute.evidenceText, files: dispute.evidenceFiles.map((file) => ({ name: file.name, size: file.size })) },
  created_at: toIsoString(dispute.createdAt),
  updated_at: toIsoString(dispute.updatedAt)
})
