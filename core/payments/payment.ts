import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/** pending -> success, or pending -> failed; terminal states never change (docs/decisions.md). */
export const PaymentStatus = Schema.Literal("pending", "success", "failed")
export type PaymentStatus = typeof PaymentStatus.Type

export const FailureReason = Schema.Literal("declined", "cancelled", "expired")
export type FailureReason = typeof FailureReason.Type

export interface Payment {
  readonly trxId: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly refTrx: string
  readonly amount: Amount
  readonly currency: string
  readonly status: PaymentStatus
  readonly failureReason: FailureReason | null
  /** Set on completion from the merchant's fee settings; null until then. */
  readonly fee: Amount | null
  readonly net: Amount | null
  readonly refundedAmount: Amount
  readonly description: string | null
  readonly customerName: string | null
  readonly customerEmail: string | null
  readonly ipnUrl: string
  readonly successRedirect: string
  readonly cancelRedirect: string
  /** Keywords as normalized from the request. */
  readonly allowPaymentMethods: ReadonlyArray<string>
  /** Gateways eligible when the session was created, after keyword narrowing. */
  readonly gatewayIds: ReadonlyArray<GatewayId>
  /** The gateway that completed or failed it, when known. */
  readonly gatewayId: GatewayId | null
  /** The subscription invoice this payment settles, if any. */
  readonly invoiceId: string | null
  readonly expiresAt: Instant
  readonly completedAt: Instant | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export type NewPayment = Omit<
  Payment,
  "status" | "failureReason" | "fee" | "net" | "refundedAmount" | "gatewayId" | "completedAt" | "createdAt" | "updatedAt"
>

/**
 * How a payment ended: the one vocabulary. A gateway reports one of these, the sandbox simulator
 * asks for one, the expiry sweep decides one; each edge maps its own words to it once (the simulate
 * endpoint's `success`, the IPN's `completed`...).
 */
export type PaymentOutcome = "paid" | FailureReason

/** A pending payment's end as asked for: its outcome, and the gateway that reported it (if any). */
export interface PaymentEnding {
  readonly outcome: PaymentOutcome
  readonly gatewayId: GatewayId | null
}

/** What the store records when a pending payment ends: a paid one with its priced fee and net. */
export type Completion =
  | { readonly outcome: "paid"; readonly fee: Amount; readonly net: Amount; readonly gatewayId: GatewayId | null }
  | { readonly outcome: FailureReason; readonly gatewayId: GatewayId | null }

/** The outcome of a payment that ended; none while it is pending. */
export const outcomeOf = (payment: Payment): PaymentOutcome | undefined =>
  payment.status === "success" ? "paid" : payment.status === "failed" ? (payment.failureReason ?? "declined") : undefined

/** Another live payment (pending and unexpired, or completed) already holds this ref_trx. */
export class ReferenceHeld extends Schema.TaggedError<ReferenceHeld>()("ReferenceHeld", {
  refTrx: Schema.String,
  heldBy: Schema.String
}) {}

export class PaymentNotFound extends Schema.TaggedError<PaymentNotFound>()("PaymentNotFound", {
  trxId: Schema.String
}) {}

/** A second outcome for a payment that already ended: terminal states never change. */
export class PaymentAlreadyFinal extends Schema.TaggedError<PaymentAlreadyFinal>()("PaymentAlreadyFinal", {
  trxId: Schema.String,
  status: PaymentStatus
}) {}

export class CurrencyNotEnabled extends Schema.TaggedError<CurrencyNotEnabled>()("CurrencyNotEnabled", {
  currency: Schema.String
}) {}

export class ReceiverWalletUnavailable extends Schema.TaggedError<ReceiverWalletUnavailable>()("ReceiverWalletUnavailable", {
  currency: Schema.String
}) {}

/** The merchant reference is held by a live or completed payment (ReferenceHeld, as the API sees it). */
export class DuplicateReference extends Schema.TaggedError<DuplicateReference>()("DuplicateReference", {
  refTrx: Schema.String
}) {}
