import type { DecimalString } from "./exact-json.js"

/**
 * The merchant API's bodies as they cross the wire (spec sections 2 and 4, with the fields
 * docs/decisions.md adds), in the API's own snake_case so the spec reads as the reference.
 * Every amount is a DecimalString: the exact digits, never a JavaScript number.
 */

export type Environment = "sandbox" | "production"

export interface InitiatePaymentRequest {
  /** At least "1.00", with no more fraction digits than the currency has. */
  readonly payment_amount: DecimalString
  readonly currency_code: string
  /** Your order reference, at most 60 characters. */
  readonly ref_trx: string
  readonly success_redirect: string
  readonly cancel_redirect: string
  readonly ipn_url: string
  readonly description?: string
  readonly customer_name?: string
  readonly customer_email?: string
  /** Keywords narrowing the gateways: a comma-separated string or a list. */
  readonly allow_payment_methods?: string | ReadonlyArray<string>
}

/** Spec 2.2, plus `info.trx_id`. */
export interface PaymentSession {
  readonly payment_url: string
  readonly info: {
    readonly trx_id: string
    readonly ref_trx: string
    readonly description: string
    readonly ipn_url: string
    readonly cancel_redirect: string
    readonly success_redirect: string
    readonly customer_name: string
    readonly customer_email: string
    readonly merchant_id: number
    readonly merchant_name: string
    readonly amount: DecimalString
    readonly currency_code: string
    readonly environment: Environment
    readonly is_sandbox: boolean
    readonly allow_payment_methods: ReadonlyArray<string>
    readonly merchant_payment_methods_restricted: boolean
    readonly merchant_payment_method_ids: ReadonlyArray<number>
    readonly merchant_payment_method_codes: ReadonlyArray<string>
  }
}

export type PaymentStatus = "pending" | "success" | "failed"

/** Spec 2.3; fee and net are "0" until the payment succeeded. */
export interface Transaction {
  readonly status: PaymentStatus
  readonly trx_id: string
  readonly amount: DecimalString
  readonly fee: DecimalString
  readonly currency: string
  readonly net_amount: DecimalString
  readonly customer: { readonly name: string; readonly email: string }
  readonly description: string
  readonly created_at: string
  readonly updated_at: string
  readonly refunded_amount: DecimalString
  readonly fully_refunded: boolean
}

/** The sandbox simulator's outcomes, in verify's words. */
export type SimulatedOutcome = "success" | "failed" | "cancelled"

export interface RefundRequest {
  readonly trx_id: string
  /** Omit for a full refund of what remains. */
  readonly amount?: DecimalString
  readonly reason?: string
  /** The same reference never refunds twice: a repeat answers the original refund. */
  readonly ref_refund?: string
}

/** Spec 2.4. */
export interface Refund {
  readonly status: "success"
  readonly message: string
  readonly refund_trx_id: string
  readonly original_trx_id: string
  readonly refunded_amount: DecimalString
  readonly total_refunded: DecimalString
  readonly remaining_refund: DecimalString
  readonly fully_refunded: boolean
  readonly currency: string
}

/** Spec 2.7. */
export interface SiteInfo {
  readonly site_name: string
  readonly site_logo: string
  readonly site_url: string
  readonly gateway_name: string
  readonly gateway_description: string
  readonly features: Readonly<Record<string, string>>
  readonly environments: { readonly production: string; readonly sandbox: string }
  readonly api_version: string
  readonly status: string
}
