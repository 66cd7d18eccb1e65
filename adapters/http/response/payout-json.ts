import type { Payout } from "../../../core/payouts/payout.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { jsonAmount } from "../contract/json-codec.js"

/** A payout as the merchant API and the admin API answer it, and as its events carry it. */
export const payoutJson = (payout: Payout) => ({
  id: payout.id,
  status: payout.status,
  amount: jsonAmount(payout.amount),
  currency: payout.currency,
  destination_id: payout.destinationId,
  environment: payout.environment,
  reason: payout.reason,
  reference: payout.reference,
  rail: payout.rail,
  approved_at: payout.approvedAt === null ? null : toIsoString(payout.approvedAt),
  created_at: toIsoString(payout.createdAt),
  updated_at: toIsoString(payout.updatedAt)
})
