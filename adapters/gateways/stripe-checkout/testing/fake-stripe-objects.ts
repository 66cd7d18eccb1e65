import { randomBytes } from "node:crypto"

/**
 * The API objects the fake answers with, shaped as Stripe's published API reference (the
 * `checkout.session`, `refund` and `event` fixtures of github.com/stripe/openapi), trimmed to fields
 * a Checkout integration reads; the JSON keys are Stripe's own, so snake_case on purpose.
 */
export type JsonObject = { [key: string]: unknown }

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** An id with Stripe's prefix and an alphanumeric tail, as its own ids look. */
export const stripeId = (prefix: string, length = 24): string =>
  prefix + Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join("")

export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

export interface SessionFields {
  readonly id: string
  readonly livemode: boolean
  readonly url: string
  readonly amount: number
  readonly currency: string
  readonly clientReferenceId: string | null
  readonly metadata: Readonly<Record<string, string>>
  readonly successUrl: string | null
  readonly cancelUrl: string | null
  readonly paymentMethodTypes: ReadonlyArray<string>
}

/** A new `checkout.session`: open and unpaid; the PaymentIntent appears only once the customer pays. */
export const checkoutSession = (fields: SessionFields): JsonObject => {
  const created = nowSeconds()
  return {
    id: fields.id,
    object: "checkout.session",
    adaptive_pricing: { enabled: false },
    after_expiration: null,
    allow_promotion_codes: null,
    amount_subtotal: fields.amount,
    amount_total: fields.amount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: fields.cancelUrl,
    client_reference_id: fields.clientReferenceId,
    client_secret: null,
    created,
    currency: fields.currency,
    custom_fields: [],
    customer: null,
    customer_creation: "if_required",
    customer_details: null,
    customer_email: null,
    expires_at: created + 24 * 60 * 60,
    invoice: null,
    livemode: fields.livemode,
    locale: null,
    metadata: { ...fields.metadata },
    mode: "payment",
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "if_required",
    payment_method_types: [...fields.paymentMethodTypes],
    payment_status: "unpaid",
    status: "open",
    submit_type: null,
    subscription: null,
    success_url: fields.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: fields.url
  }
}

export interface RefundFields {
  readonly paymentIntent: string
  readonly amount: number
  readonly currency: string
  readonly metadata: Readonly<Record<string, string>>
  readonly status: string
  readonly failureReason: string | null
}

export const refundObject = (fields: RefundFields): JsonObject => ({
  id: stripeId("re_"),
  object: "refund",
  amount: fields.amount,
  balance_transaction: fields.status === "succeeded" ? stripeId("txn_") : null,
  charge: stripeId("ch_"),
  created: nowSeconds(),
  currency: fields.currency,
  destination_details: { card: { type: "refund" }, type: "card" },
  metadata: { ...fields.metadata },
  payment_intent: fields.paymentIntent,
  reason: null,
  receipt_number: null,
  source_transfer_reversal: null,
  status: fields.status,
  transfer_reversal: null,
  ...(fields.failureReason !== null ? { failure_reason: fields.failureReason } : {})
})

export interface TransferFields {
  readonly amount: number
  readonly currency: string
  readonly destination: string
  readonly livemode: boolean
  readonly metadata: Readonly<Record<string, string>>
  readonly transferGroup: string | null
}

/** A `transfer` to a connected account (Stripe Connect): the money is in the account's balance once created. */
export const transferObject = (fields: TransferFields): JsonObject => ({
  id: stripeId("tr_"),
  object: "transfer",
  amount: fields.amount,
  amount_reversed: 0,
  balance_transaction: stripeId("txn_"),
  created: nowSeconds(),
  currency: fields.currency,
  description: null,
  destination: fields.destination,
  destination_payment: stripeId("py_"),
  livemode: fields.livemode,
  metadata: { ...fields.metadata },
  reversals: { object: "list", data: [], has_more: false, total_count: 0, url: "/v1/transfers/reversals" },
  reversed: false,
  source_transaction: null,
  source_type: "card",
  transfer_group: fields.transferGroup
})

/** A webhook `event` carrying a snapshot of the session, as Stripe delivers it. */
/** The `payment_intent` behind a paid session, trimmed to what an integration reads. */
export const paymentIntentObject = (id: string, session: JsonObject, metadata: Readonly<Record<string, string>>): JsonObject => ({
  id,
  object: "payment_intent",
  amount: session["amount_total"],
  amount_received: session["payment_status"] === "paid" ? session["amount_total"] : 0,
  currency: session["currency"],
  livemode: session["livemode"],
  metadata: { ...metadata },
  status: session["payment_status"] === "paid" ? "succeeded" : "processing"
})

export interface DisputeFields {
  readonly id: string
  readonly paymentIntent: string
  readonly amount: number
  readonly currency: string
  readonly livemode: boolean
  readonly reason: string
  readonly status: string
  readonly dueBy: number
}

/** A `dispute` on the charge of a PaymentIntent, as Stripe's charge.dispute.* events carry it. */
export const disputeObject = (fields: DisputeFields): JsonObject => ({
  id: fields.id,
  object: "dispute",
  amount: fields.amount,
  balance_transactions: [],
  charge: stripeId("ch_"),
  created: nowSeconds(),
  currency: fields.currency,
  evidence: { uncategorized_text: null },
  evidence_details: { due_by: fields.dueBy, has_evidence: false, past_due: false, submission_count: 0 },
  is_charge_refundable: false,
  livemode: fields.livemode,
  metadata: {},
  payment_intent: fields.paymentIntent,
  reason: fields.reason,
  status: fields.status
})

/** A webhook `event` carrying a snapshot of its object (a session, a dispute), as Stripe delivers it. */
export const eventObject = (type: string, session: JsonObject, created: number): JsonObject => ({
  id: stripeId("evt_"),
  object: "event",
  api_version: "2026-10-28.endive",
  created,
  data: { object: session },
  livemode: session["livemode"],
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type
})

/** Stripe's error envelope: `{ error: { type, message, code?, param? } }`. */
export const errorBody = (type: string, message: string, extra: { code?: string; param?: string } = {}): JsonObject => ({
  error: { type, message, ...extra }
})
