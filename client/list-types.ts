import type { PaymentStatus, ResponseOf } from "./api-types.js"

/** The merchant's lists of payments and refunds, read off the declarations. */

export type PaymentPage = ResponseOf<"listPayments">
export type RefundPage = ResponseOf<"listRefunds">
export type RefundItem = RefundPage["data"][number]

export interface ListPaymentsQuery {
  /** 1 to 100; the service's default is 20. */
  readonly limit?: number
  /** A previous page's `next_cursor`. */
  readonly cursor?: string
  /** As verify-payment answers it: a pending payment past its expiry is failed. */
  readonly status?: PaymentStatus
  /** Your ref_trx, matched exactly. */
  readonly reference?: string
  /** Exactly this amount, as a decimal string such as "10.50": never a float. */
  readonly amount?: string
  /** Such as USD. */
  readonly currency?: string
  /** ISO 8601: created at or after. */
  readonly since?: string
  /** ISO 8601: created before. */
  readonly until?: string
}

export interface ListRefundsQuery {
  /** 1 to 100; the service's default is 20. */
  readonly limit?: number
  /** A previous page's `next_cursor`. */
  readonly cursor?: string
  /** Only the refunds of this payment. */
  readonly trx_id?: string
  /** ISO 8601: created at or after. */
  readonly since?: string
  /** ISO 8601: created before. */
  readonly until?: string
}
