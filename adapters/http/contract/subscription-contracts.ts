import { metadataProblem } from "../../../core/subscriptions/metadata-rules.js"
import { BillingCycle } from "../../../core/subscriptions/subscription.js"
import { MAX_TRIAL_DAYS } from "../../../core/subscriptions/plan-changes.js"
import { amount, boolean, currencyCode, dateTime, email, integer, jsonObject, oneOf, reference, string, textOrList, url, withDefault } from "./field-rules.js"
import { bodyContract } from "./read-body.js"
import { LOCALES } from "../checkout/locale.js"

const URL_RULE = { required: true, max: 255 } as const

/** Spec 4.5. */
export const createSubscriptionBody = bodyContract("CreateSubscriptionRequest", "A subscription and, unless it starts later, its first invoice (spec 4.5).", {
  payment_amount: amount({ required: true, description: "At least 1 in the selected currency.", examples: ["19.99"] }),
  currency_code: currencyCode({ required: true, examples: ["USD"] }),
  external_reference: reference({ required: true, max: 100, description: "Unique per merchant and environment." }),
  billing_cycle: oneOf(BillingCycle.literals, { required: true }),
  customer_email: email({ required: true, max: 150 }),
  customer_name: string({ max: 100 }),
  description: string({ max: 1000 }),
  success_redirect: url(URL_RULE),
  cancel_redirect: url(URL_RULE),
  ipn_url: url({ ...URL_RULE, description: "HTTPS, resolving to public addresses only." }),
  starts_at: dateTime({ max: 64, description: "Omit for an immediate first invoice; a past value is refused." }),
  trial_days: integer({
    min: 1,
    max: MAX_TRIAL_DAYS,
    description: "A free trial: the subscription is active now with `trial_end`, and its first invoice opens when the trial ends. Not with starts_at."
  }),
  allow_payment_methods: textOrList({ max: 1000, maxItems: 50, description: "A method code, comma-separated codes, or an array of codes." }),
  metadata: jsonObject({
    problem: metadataProblem,
    description: "At most 50 top-level entries; no secrets, no card data."
  }),
  test_clock: string({ max: 64, description: "Sandbox only: a test clock's id; the subscription is created at its frozen time and lives on it." }),
  locale: oneOf(LOCALES, { description: "The language of the customer's mail (invoices, receipts, reminders), as on the checkout page; omit for English." })
})

export const cancelSubscriptionBody = bodyContract("CancelSubscriptionRequest", "When the subscription ends (spec 4.8).", {
  at_period_end: withDefault(boolean({ description: "true: at the end of the paid period; false: now, voiding pending invoices." }), true)
})

export const renewSubscriptionBody = bodyContract("RenewSubscriptionRequest", "A renewal checkout to create or recover (spec 4.9).", {
  force_new: withDefault(boolean({ description: "true voids the open invoice first." }), false)
})

/** Issue 36: a plan change and how it is prorated. */
export const updateSubscriptionBody = bodyContract("UpdateSubscriptionRequest", "A new amount and/or billing cycle, and how the change is prorated.", {
  payment_amount: amount({ description: "The new amount: at least 1 in the subscription's currency.", examples: ["29.99"] }),
  billing_cycle: oneOf(BillingCycle.literals, { description: "The new billing cycle." }),
  proration: oneOf(["now", "next_period", "none"] as const, {
    required: true,
    description: "`now`: credit the unused part of the paid period at the old price and charge it at the new one (a net charge opens an invoice now, a net credit is taken off the next invoices); a cycle change re-anchors the periods now. `next_period`: applied at the next renewal. `none`: the new amount from the next invoice, no credit or charge."
  })
})

/** Issue 36: a pause, until resumed or until `resumes_at`. */
export const pauseSubscriptionBody = bodyContract("PauseSubscriptionRequest", "Stops invoices until the subscription resumes.", {
  resumes_at: dateTime({ max: 64, description: "Resume automatically then; omit to resume only by /resume." })
})
