import type { RequestOf, ResponseOf } from "./api-types.js"

/** Subscription bodies (spec 2.5, 2.6, 4.5-4.9, and the envelopes docs/decisions.md settles), read off the declarations. */

export type CreateSubscriptionRequest = RequestOf<"createSubscription">
export type CancelSubscriptionRequest = RequestOf<"cancelSubscription">
export type RenewSubscriptionRequest = RequestOf<"renewSubscription">
/** Create, retrieve, cancel and renew all answer `{ data: <subscription> }`. */
export type SubscriptionResponse = ResponseOf<"retrieveSubscription">
export type Subscription = SubscriptionResponse["data"]
export type SubscriptionPage = ResponseOf<"listSubscriptions">
export type Invoice = NonNullable<Subscription["latest_invoice"]>
export type BillingCycle = Subscription["billing_cycle"]
export type SubscriptionStatus = Subscription["status"]
export type InvoiceStatus = Invoice["status"]

export interface ListSubscriptionsQuery {
  /** From 1. */
  readonly page?: number
  /** 1 to 100; the service's default is 20. */
  readonly per_page?: number
}
