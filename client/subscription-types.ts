import type { Environment } from "./api-types.js"
import type { DecimalString } from "./exact-json.js"

/** Subscription bodies (spec 2.5, 2.6, 4.5-4.9, and the envelopes docs/decisions.md settles). */

export type BillingCycle = "daily" | "weekly" | "monthly" | "half_yearly" | "yearly"
export type SubscriptionStatus = "pending" | "active" | "past_due" | "cancelled"
export type InvoiceStatus = "pending" | "paid" | "expired" | "void"

export interface CreateSubscriptionRequest {
  /** Unique per merchant and environment, at most 100 characters. */
  readonly external_reference: string
  readonly billing_cycle: BillingCycle
  readonly payment_amount: DecimalString
  readonly currency_code: string
  readonly customer_email: string
  readonly success_redirect: string
  readonly cancel_redirect: string
  /** HTTPS, resolving to public addresses only. */
  readonly ipn_url: string
  readonly customer_name?: string
  readonly description?: string
  /** ISO 8601 with an offset; omit to open the first invoice now. */
  readonly starts_at?: string
  readonly allow_payment_methods?: string | ReadonlyArray<string>
  /** At most 50 top-level entries; never secrets or card data. */
  readonly metadata?: Readonly<Record<string, unknown>>
}

/** Dates are ISO 8601 UTC with microseconds; null where not (yet) known. */
export interface Invoice {
  readonly id: string
  /** The `ref_trx` the invoice's completed IPN carries. */
  readonly reference: string
  readonly sequence: number
  readonly status: InvoiceStatus
  readonly trx_id: string | null
  readonly payment_url: string | null
  readonly checkout_expires_at: string | null
  /** Eight fraction digits, as the service writes subscription amounts. */
  readonly amount: DecimalString
  readonly currency_code: string
  readonly period_start: string | null
  readonly period_end: string | null
  readonly paid_at: string | null
  readonly created_at: string
}

export interface Subscription {
  readonly id: string
  readonly external_reference: string
  readonly environment: Environment
  readonly status: SubscriptionStatus
  readonly billing_cycle: BillingCycle
  readonly amount: DecimalString
  readonly currency_code: string
  readonly customer_email: string
  readonly customer_name: string | null
  readonly description: string | null
  readonly metadata: Readonly<Record<string, unknown>>
  readonly allow_payment_methods: ReadonlyArray<string>
  readonly success_redirect: string
  readonly cancel_redirect: string
  readonly ipn_url: string
  readonly starts_at: string | null
  readonly current_period_start: string | null
  /** Grant access up to this instant only. */
  readonly current_period_end: string | null
  readonly next_billing_at: string | null
  readonly cancel_at_period_end: boolean
  readonly cancelled_at: string | null
  readonly created_at: string
  readonly updated_at: string
  readonly latest_invoice: Invoice | null
  /** The newest twenty, on retrieve only. */
  readonly invoices?: ReadonlyArray<Invoice>
}

/** Create, retrieve, cancel and renew all answer `{ data: <subscription> }`. */
export interface SubscriptionResponse {
  readonly data: Subscription
}

export interface SubscriptionPage {
  readonly data: ReadonlyArray<Subscription>
  readonly meta: {
    readonly current_page: number
    readonly per_page: number
    readonly total: number
    readonly last_page: number
  }
}

export interface ListSubscriptionsQuery {
  /** From 1. */
  readonly page?: number
  /** 1 to 100; the service's default is 20. */
  readonly per_page?: number
}

export interface CancelSubscriptionRequest {
  /** true (the default) ends it with the paid period; false ends it now and voids pending invoices. */
  readonly at_period_end?: boolean
}

export interface RenewSubscriptionRequest {
  /** true voids the open invoice and opens a fresh one; default false. */
  readonly force_new?: boolean
}
