/** The plugin API's part in disputes: what a gateway reports of one, and the evidence sent back. */

/**
 * What a gateway said of a dispute, by its own id for it: opened, updated (its deadline or review),
 * or closed with an outcome. The same report delivered twice changes nothing the second time. A
 * notification reports one only once the plugin verified it (an unverified one is ignored).
 */
export interface DisputeReport {
  readonly event: "opened" | "updated" | "closed"
  /** The gateway's own id for the dispute: how later reports find it. */
  readonly gatewayDisputeId: string
  /** The kit's payment it disputes. */
  readonly trxId: string
  /** The disputed amount, when opened (else the payment's remainder). */
  /** An exact decimal string in the currency's own digits, as every amount at the plugin boundary. */
  readonly amount?: string
  readonly currency?: string
  readonly reason?: string
  /** ISO 8601: until when the network takes evidence. */
  readonly evidenceDueBy?: string
  /** An update's stage: still waiting for evidence, or under review. */
  readonly status?: "needs_response" | "under_review"
  /** A close's outcome. */
  readonly outcome?: "won" | "lost"
}

/** A merchant's evidence on a dispute, to send on to the gateway (with the payment: DisputeEvidenceContext). */
export interface DisputeEvidence {
  /** The kit's dispute id. */
  readonly disputeId: string
  /** The gateway's own id for the dispute; null for one the kit opened itself (sandbox). */
  readonly gatewayDisputeId: string | null
  readonly text: string
  readonly files: ReadonlyArray<{ readonly name: string; readonly contentBase64: string }>
}

/** "refused": the gateway would not take it; `message` says why, and is shown to the merchant. */
export interface DisputeEvidenceReport {
  readonly status: "submitted" | "refused"
  readonly message?: string
}
