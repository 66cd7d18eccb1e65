import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

export const SubscriptionStatus = Schema.Literal("pending", "active", "past_due", "cancelled")
export type SubscriptionStatus = typeof SubscriptionStatus.Type

export const BillingCycle = Schema.Literal("daily", "weekly", "monthly", "half_yearly", "yearly")
export type BillingCycle = typeof BillingCycle.Type

export interface Subscription {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly externalReference: string
  readonly status: SubscriptionStatus
  readonly billingCycle: BillingCycle
  readonly amount: Amount
  readonly currency: string
  readonly customerEmail: string
  readonly customerName: string | null
  readonly description: string | null
  readonly successRedirect: string
  readonly cancelRedirect: string
  readonly ipnUrl: string
  readonly allowPaymentMethods: ReadonlyArray<string>
  readonly metadata: Readonly<Record<string, unknown>>
  readonly startsAt: Instant | null
  readonly currentPeriodStart: Instant | null
  readonly currentPeriodEnd: Instant | null
  readonly nextBillingAt: Instant | null
  readonly cancelAtPeriodEnd: boolean
  readonly cancelledAt: Instant | null
  /** The sandbox test clock whose time this subscription lives on; null: real time. */
  readonly testClockId: string | null
  /** The saved method renewals are charged to (saved-methods.ts); null: renewals are hosted invoices. */
  readonly savedMethodId: string | null
  /** When the next off-session charge of the open renewal invoice is due (renewal-charges.ts). Internal. */
  readonly chargeAt: Instant | null
  /** Off-session tries the open renewal invoice has had. Internal. */
  readonly chargeAttempts: number
  /** The idempotency key of a try claimed but not yet recorded: a retry after a crash reuses it. Internal. */
  readonly chargeClaim: string | null
  /** When the scheduler must next look at it (wake.ts); null: nothing scheduled. Internal. */
  readonly wakeAt: Instant | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export type NewSubscription = Omit<Subscription, "createdAt" | "updatedAt">

/** The lifecycle fields a transition may change. */
export type SubscriptionChange = Partial<
  Pick<
    Subscription,
    | "status"
    | "currentPeriodStart"
    | "currentPeriodEnd"
    | "nextBillingAt"
    | "cancelAtPeriodEnd"
    | "cancelledAt"
    | "wakeAt"
    | "savedMethodId"
    | "chargeAt"
    | "chargeAttempts"
    | "chargeClaim"
  >
>

export const InvoiceStatus = Schema.Literal("pending", "paid", "expired", "void")
export type InvoiceStatus = typeof InvoiceStatus.Type

export interface Invoice {
  readonly id: string
  readonly subscriptionId: string
  readonly sequence: number
  /** The ref_trx of the invoice's payment: a completed IPN must match it. */
  readonly reference: string
  readonly status: InvoiceStatus
  readonly amount: Amount
  readonly currency: string
  readonly trxId: string | null
  readonly periodStart: Instant | null
  readonly periodEnd: Instant | null
  readonly checkoutExpiresAt: Instant | null
  readonly paidAt: Instant | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export type NewInvoice = Omit<Invoice, "createdAt" | "updatedAt">

export type InvoiceChange = Partial<Pick<Invoice, "status" | "trxId" | "checkoutExpiresAt" | "paidAt">>

export class ExternalReferenceTaken extends Schema.TaggedError<ExternalReferenceTaken>()("ExternalReferenceTaken", {
  externalReference: Schema.String
}) {}

/** Another writer already created this invoice sequence: the caller lost a race and should re-read. */
export class InvoiceSequenceTaken extends Schema.TaggedError<InvoiceSequenceTaken>()("InvoiceSequenceTaken", {
  subscriptionId: Schema.String,
  sequence: Schema.Number
}) {}

/** No such subscription for this merchant in this environment. */
export class SubscriptionNotFound extends Schema.TaggedError<SubscriptionNotFound>()("SubscriptionNotFound", {
  subscriptionId: Schema.String
}) {}

/** A lifecycle step the subscription's status does not allow (spec 3.2: 409). */
export class SubscriptionTransitionRefused extends Schema.TaggedError<SubscriptionTransitionRefused>()("SubscriptionTransitionRefused", {
  status: SubscriptionStatus,
  action: Schema.String,
  message: Schema.String
}) {}
