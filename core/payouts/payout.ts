import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/**
 * Where a payout stands: asked for (pending), accepted by an operator (approved), sent (paid), or
 * ended without leaving (failed after approval, rejected before); the last two returned the funds.
 */
export const PayoutStatus = Schema.Literal("pending", "approved", "paid", "failed", "rejected")
export type PayoutStatus = typeof PayoutStatus.Type

/** Money a merchant asked to move from its wallet to one of its payout destinations. */
export interface Payout {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly currency: string
  readonly amount: Amount
  readonly destinationId: string
  readonly status: PayoutStatus
  /** Why an operator rejected it or it failed; null otherwise. */
  readonly reason: string | null
  /** The bank's or rail's reference once paid; null before. */
  readonly reference: string | null
  /** The rail that carries it (core/payouts/payout-rail.ts), named when it is approved; null before. */
  readonly rail: string | null
  /** When an operator approved it: the day the manual rail's file lists it under. */
  readonly approvedAt: Instant | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

/** What an operator does to a payout, and the status each leads to. */
export const PayoutAction = Schema.Literal("approve", "reject", "mark-paid", "mark-failed")
export type PayoutAction = typeof PayoutAction.Type

const TRANSITIONS: Record<PayoutAction, { readonly from: PayoutStatus; readonly to: PayoutStatus }> = {
  approve: { from: "pending", to: "approved" },
  reject: { from: "pending", to: "rejected" },
  "mark-paid": { from: "approved", to: "paid" },
  "mark-failed": { from: "approved", to: "failed" }
}

/** The one status an action is allowed from, and where it leads. */
export const payoutTransition = (action: PayoutAction) => TRANSITIONS[action]

export class PayoutNotFound extends Schema.TaggedError<PayoutNotFound>()("PayoutNotFound", {}) {}

/** `amount` is what was available (the balance less what is pending) when the payout was refused. */
export class PayoutExceedsBalance extends Schema.TaggedError<PayoutExceedsBalance>()("PayoutExceedsBalance", {
  amount: Schema.BigIntFromSelf,
  currency: Schema.String,
  exponent: Schema.Number
}) {}

/** An operator's action not allowed from the payout's current status; nothing changed. */
export class PayoutTransitionRefused extends Schema.TaggedError<PayoutTransitionRefused>()("PayoutTransitionRefused", {
  status: PayoutStatus,
  action: Schema.String,
  message: Schema.String
}) {}
