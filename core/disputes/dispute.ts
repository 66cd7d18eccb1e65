import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/**
 * Where a dispute stands: waiting for the merchant's evidence (needs_response), evidence sent and the
 * card network deciding (under_review), or closed: won (the amount came back) or lost.
 */
export const DisputeStatus = Schema.Literal("needs_response", "under_review", "won", "lost")
export type DisputeStatus = typeof DisputeStatus.Type

export const DisputeOutcome = Schema.Literal("won", "lost")
export type DisputeOutcome = typeof DisputeOutcome.Type

/** Open disputes still hold their amount; a lost one took it for good. Both count against a refund. */
export const holdsPayment = (status: DisputeStatus): boolean => status !== "won"

export const isOpen = (status: DisputeStatus): boolean => status === "needs_response" || status === "under_review"

/** A file the merchant sent as evidence, kept whole with the dispute and passed on to the gateway. */
export interface EvidenceFile {
  readonly name: string
  /** The file's bytes, base64. */
  readonly contentBase64: string
  /** Decoded size in bytes. */
  readonly size: number
}

/** A customer's challenge of a completed payment through the card network. */
export interface Dispute {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly paymentTrxId: string
  readonly currency: string
  /** The disputed part of the payment, held from the wallet while the dispute is open. */
  readonly amount: Amount
  /** The merchant's dispute fee, charged when it opened and never returned. */
  readonly fee: Amount
  readonly reason: string
  readonly status: DisputeStatus
  /** The merchant's evidence is taken until then. */
  readonly evidenceDueBy: Instant
  readonly evidenceText: string | null
  readonly evidenceFiles: ReadonlyArray<EvidenceFile>
  /** The gateway that reported it and its own id for it; null for one opened in sandbox by an operator. */
  readonly gatewayId: GatewayId | null
  readonly gatewayDisputeId: string | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export class DisputeNotFound extends Schema.TaggedError<DisputeNotFound>()("DisputeNotFound", {}) {}

/** A dispute's step not allowed from where it stands (evidence after review began, a second close); nothing changed. */
export class DisputeTransitionRefused extends Schema.TaggedError<DisputeTransitionRefused>()("DisputeTransitionRefused", {
  status: DisputeStatus,
  message: Schema.String
}) {}

/** Evidence after `evidence_due_by`: the network no longer takes it. */
export class DisputeEvidenceOverdue extends Schema.TaggedError<DisputeEvidenceOverdue>()("DisputeEvidenceOverdue", {
  message: Schema.String
}) {}

/** A dispute can be opened only on a completed payment, for at most what is left of it. */
export class DisputeRefused extends Schema.TaggedError<DisputeRefused>()("DisputeRefused", {
  message: Schema.String
}) {}

/** The gateway would not take the evidence; `message` is its reason. Nothing changed. */
export class DisputeEvidenceRefused extends Schema.TaggedError<DisputeEvidenceRefused>()("DisputeEvidenceRefused", {
  message: Schema.String
}) {}
