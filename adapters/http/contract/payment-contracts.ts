import { amount, currencyCode, email, oneOf, reference, string, textOrList, url } from "./field-rules.js"
import { bodyContract } from "./read-body.js"

const URL_RULE = { required: true, max: 2048 } as const

/** Spec 4.1. */
export const initiatePaymentBody = bodyContract("InitiatePaymentRequest", "A hosted checkout session to create (spec 4.1).", {
  payment_amount: amount({ required: true, description: "At least 1.00, in the currency's own digits.", examples: [25.5] }),
  currency_code: currencyCode({ required: true, description: "Enabled for the merchant and backed by an active wallet.", examples: ["USD"] }),
  ref_trx: reference({ required: true, max: 60, description: "The merchant's order reference.", examples: ["ORDER-1001"] }),
  success_redirect: url({ ...URL_RULE, description: "Where the customer goes after paying." }),
  cancel_redirect: url({ ...URL_RULE, description: "Where the customer goes when checkout is cancelled or cannot go on." }),
  ipn_url: url({ ...URL_RULE, description: "The webhook target: a public http(s) address." }),
  description: string({ max: 1000 }),
  customer_name: string({ max: 100 }),
  customer_email: email({ max: 100 }),
  allow_payment_methods: textOrList({
    max: 1000,
    maxItems: 50,
    description: "Keywords narrowing the eligible gateways: a comma-separated string or an array; matched case-insensitively against gateway names and codes."
  })
})

/** Spec 4.3. */
export const refundPaymentBody = bodyContract("RefundPaymentRequest", "A full or partial refund of a completed payment (spec 4.3).", {
  trx_id: string({ required: true, max: 100, description: "The completed payment's trx_id." }),
  amount: amount({ description: "Omit for a full refund; partial refunds accumulate up to the payment's amount." }),
  reason: string({ max: 500, description: "Stored with the refund." }),
  ref_refund: reference({ max: 100, description: "The merchant's refund reference: the same one never refunds twice." })
})

/** The simulate endpoint's words, those of verify's `status`. */
export const SIMULATE_WORDS = ["success", "failed", "cancelled"] as const

export const simulatePaymentBody = bodyContract("SimulatePaymentRequest", "How a sandbox payment ends, without a browser.", {
  outcome: oneOf(SIMULATE_WORDS, { required: true })
})
