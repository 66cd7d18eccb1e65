import { metadataProblem } from "../../../core/subscriptions/metadata-rules.js"
import { BillingCycle } from "../../../core/subscriptions/subscription.js"
import { amount, boolean, currencyCode, dateTime, email, jsonObject, oneOf, reference, string, textOrList, url, withDefault } from "./field-rules.js"
import { bodyContract } from "./read-body.js"

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
  allow_payment_methods: textOrList({ max: 1000, maxItems: 50, description: "A method code, comma-separated codes, or an array of codes." }),
  metadata: jsonObject({
    problem: metadataProblem,
    description: "At most 50 top-level entries; no secrets, no card data."
  }),
  test_clock: string({ max: 64, description: "Sandbox only: a test clock's id; the subscription is created at its frozen time and lives on it." })
})

export const cancelSubscriptionBody = bodyContract("CancelSubscriptionRequest", "When the subscription ends (spec 4.8).", {
  at_period_end: withDefault(boolean({ description: "true: at the end of the paid period; false: now, voiding pending invoices." }), true)
})

export const renewSubscriptionBody = bodyContract("RenewSubscriptionRequest", "A renewal checkout to create or recover (spec 4.9).", {
  force_new: withDefault(boolean({ description: "true voids the open invoice first." }), false)
})
