import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { Dunning } from "./dunning-state.js"

export const SubscriptionStatus = Schema.Literal("pending", "active", "past_due", "cancelled")
export type SubscriptionStatus = typeof SubscriptionStatus.Type

export const BillingCycle = Schema.Literal("daily", "weekly", "monthly", "half_yearly", "yearly")
export type BillingCycle = typeof BillingCycle.Type

/**
 * What trials, plan changes and pauses add to a subscription (issue 36; see plan-changes.ts), each
 * shown on the resource only when set. Absent on a new subscription: none of them.
 */
export interface PlanChangeFields {
  /** The end of a free trial: the first invoice opens then. */
  readonly trialEnd: Instant | null
  /** When `subscription.trial_will_end` is due; null once sent (or no trial). Internal. */
  readonly trialNoticeAt: Instant | null
  /** Where periods are counted from when it moved from starts_at (a trial, a cycle change); null: anchorOf's. Internal. */
  readonly billingAnchor: Instant | null
  readonly pausedAt: Instant | null
  /** When a paused subscription resumes by itself; null: only by /resume. */
  readonly resumesAt: Instant | null
  /** A change stored with proration `next_period` (or a cycle change that waits for a boundary). */
  readonly pendingAmount: Amount | null
  readonly pendingCycle: BillingCycle | null
  /**
   * Proration credit at the money scale (whole minor units), taken off the next invoices until used;
   * negative: a prorated charge too small for a checkout of its own, added to the next invoice.
   */
  readonly credit: Amount
}

/** A subscription with no trial, pause, pending change or credit. */
export const NO_PLAN_CHANGES: PlanChangeFields = {
  trialEnd: null,
  trialNoticeAt: null,
  billingAnchor: null,
  pausedAt: null,
  resumesAt: null,
  pendingAmount: null,
  pendingCycle: null,
  credit: 0n as Amount
}

export interface Subscription extends PlanChangeFields {
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
  /** The language of the customer's mail (one of the checkout's); null: English. */
  readonly locale: string | null
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
  /** The running dunning campaign of its unpaid renewal (dunning-state.ts); null: none. */
  readonly dunning: Dunning | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

/** What a writer inserts: the fields a new subscription has no use for (a plan change, a campaign) may be left out. */
export type NewSubscription = Omit<Subscription, "createdAt" | "updatedAt" | "dunning" | "locale" | keyof PlanChangeFields> & Partial<PlanChangeFields> & {
  readonly dunning?: Dunning | null
  readonly locale?: string | null
}

/** The lifecycle fields a transition may change. */
export type SubscriptionChange = Partial<
  Pick<
    Subscription,
    "status" | "currentPeriodStart" | "currentPeriodEnd" | "nextBillingAt" | "cancelAtPeriodEnd" | "cancelledAt" | "wakeAt" | "dunning"
    | "savedMethodId" | "chargeAt" | "chargeAttempts" | "chargeClaim"
    | "amount" | "billingCycle" | keyof PlanChangeFields
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
  /**
   * The document number (`INV-2026-000001`, core/subscriptions/invoice-number.ts), assigned by the
   * store as it inserts the invoice. Null only for a row no store has numbered (none after 0029).
   */
  readonly number: string | null
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

/** The store assigns `number` itself, in the inserting transaction. */
export type NewInvoice = Omit<Invoice, "createdAt" | "updatedAt" | "number">

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
