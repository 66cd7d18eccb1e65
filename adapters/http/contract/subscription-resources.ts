import * as Schema from "effect/Schema"
import { BillingCycle, InvoiceStatus, SubscriptionStatus } from "../../../core/subscriptions/subscription.js"
import { dataOf, pageOf } from "./envelopes.js"
import { Environment, Fixed8Amount, HttpUrl, Integer, NullableTimestamp, Timestamp } from "./value-schemas.js"
import { LOCALES } from "../checkout/locale.js"

/** Spec 2.6 plus the invoice's own facts; `payment_url` is null once no checkout is open for it. */
export const Invoice = Schema.Struct({
  id: Schema.String,
  reference: Schema.String.annotations({ description: "The ref_trx its completed payment's IPN carries." }),
  sequence: Integer,
  status: InvoiceStatus,
  trx_id: Schema.NullOr(Schema.String),
  payment_url: Schema.NullOr(HttpUrl),
  checkout_expires_at: NullableTimestamp,
  amount: Fixed8Amount,
  currency_code: Schema.String,
  period_start: NullableTimestamp,
  period_end: NullableTimestamp,
  paid_at: NullableTimestamp,
  created_at: Timestamp,
  number: Schema.NullOr(Schema.String).annotations({
    description: "The invoice document's number, `INV-2026-000001`: gapless per merchant, environment and calendar year (UTC) of issue."
  })
}).annotations({ identifier: "Invoice", description: "A subscription invoice (spec 2.6)." })

/** The display facts of the method renewals are charged to; never its gateway reference. */
export const SavedPaymentMethod = Schema.Struct({
  brand: Schema.String.annotations({ description: "Lower-case card network, e.g. \"visa\"." }),
  last4: Schema.String,
  exp_month: Integer,
  exp_year: Integer
}).annotations({ identifier: "SavedPaymentMethod", description: "A payment method saved at the subscription's checkout, charged off-session at renewal." })

const subscriptionFields = {
  id: Schema.String,
  external_reference: Schema.String,
  environment: Environment,
  status: SubscriptionStatus,
  billing_cycle: BillingCycle,
  amount: Fixed8Amount,
  currency_code: Schema.String,
  customer_email: Schema.String,
  customer_name: Schema.NullOr(Schema.String),
  description: Schema.NullOr(Schema.String),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  allow_payment_methods: Schema.Array(Schema.String),
  success_redirect: HttpUrl,
  cancel_redirect: HttpUrl,
  ipn_url: HttpUrl,
  starts_at: NullableTimestamp,
  current_period_start: NullableTimestamp,
  current_period_end: NullableTimestamp.annotations({ description: "Access is granted up to this instant." }),
  next_billing_at: NullableTimestamp,
  cancel_at_period_end: Schema.Boolean,
  cancelled_at: NullableTimestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
  latest_invoice: Schema.NullOr(Invoice),
  // Issue 36, each present only when set.
  trial_end: Schema.optional(Timestamp.annotations({ description: "The end of the free trial: the first invoice opens then." })),
  paused_at: Schema.optional(Timestamp.annotations({ description: "Paused since: no invoices open until it resumes." })),
  resumes_at: Schema.optional(Timestamp.annotations({ description: "When the pause ends by itself." })),
  pending_change: Schema.optional(Schema.Struct({
    amount: Schema.optional(Fixed8Amount),
    billing_cycle: Schema.optional(BillingCycle)
  }).annotations({ description: "A change applied at the next renewal." })),
  credit: Schema.optional(Fixed8Amount.annotations({ description: "Proration credit taken off the next invoices until used." }))
}

/** Spec 2.5 with the fields docs/decisions.md adds; `invoices` (the newest 20) on retrieve only. */
export const Subscription = Schema.Struct({
  ...subscriptionFields,
  invoices: Schema.optional(Schema.Array(Invoice)),
  test_clock: Schema.optional(Schema.String.annotations({ description: "The sandbox test clock it lives on; absent on real time." })),
  locale: Schema.optional(Schema.String.annotations({ description: `The language of the customer's mail (${LOCALES.join(", ")}), when one was given; absent: English.` })),
  saved_payment_method: Schema.optional(SavedPaymentMethod).annotations({ description: "On retrieve, when a method is saved: renewals charge it automatically." })
}).annotations({ identifier: "Subscription", description: "A subscription (spec 2.5)." })

export const SubscriptionEnvelope = dataOf(Subscription, "SubscriptionResponse")
export const SubscriptionPage = pageOf(Subscription, "SubscriptionPage")
