import * as Schema from "effect/Schema"

/**
 * The shapes a plugin's answers must have, checked on every call whatever the authoring style: a
 * Promise-style plugin is untyped JavaScript as far as the kit knows, and a wrong shape must become
 * a clear failure, never a half-read answer.
 */
const Reference = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(255))
const Decimal = Schema.String.pipe(Schema.pattern(/^\d{1,19}(\.\d{1,18})?$/))
const CurrencyCode = Schema.String.pipe(Schema.pattern(/^[A-Z][A-Z0-9]{2,9}$/))
const Outcome = Schema.Literal("paid", "declined", "cancelled", "pending")

const HttpUrl = Schema.String.pipe(Schema.filter((text) => {
  if (!URL.canParse(text)) return "a redirect must be an absolute URL"
  const protocol = new URL(text).protocol
  return protocol === "https:" || protocol === "http:" || "a redirect must be an http(s) URL"
}))

/** A saved method as reported: the reference is opaque; the display facts are checked for sense. */
export const SavedMethodReportSchema = Schema.Struct({
  reference: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  brand: Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9_ -]{0,31}$/)),
  last4: Schema.String.pipe(Schema.pattern(/^\d{4}$/)),
  expMonth: Schema.Int.pipe(Schema.between(1, 12)),
  expYear: Schema.Int.pipe(Schema.between(2000, 2200))
})
const SavedMethod = Schema.optionalWith(SavedMethodReportSchema, { exact: true })

export const SavedMethodChargeReportSchema = Schema.Union(
  Schema.Struct({
    status: Schema.Literal("paid"),
    gatewayReference: Reference,
    message: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1_000)), { exact: true })
  }),
  Schema.Struct({
    status: Schema.Literal("declined", "hard_declined", "authentication_required"),
    message: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1_000)),
    gatewayReference: Schema.optionalWith(Reference, { exact: true })
  })
)

export const SetupReportSchema = Schema.Union(
  Schema.Struct({ outcome: Schema.Literal("saved"), verified: Schema.Boolean, savedMethod: SavedMethodReportSchema }),
  Schema.Struct({ outcome: Schema.Literal("cancelled", "pending"), verified: Schema.Boolean })
)

export const CheckoutStartSchema = Schema.Union(
  Schema.Struct({ redirect: HttpUrl, gatewayReference: Schema.optionalWith(Reference, { exact: true }) }),
  Schema.Struct({ html: Schema.String.pipe(Schema.minLength(1)), gatewayReference: Schema.optionalWith(Reference, { exact: true }) })
)

export const ReturnReportSchema = Schema.Struct({
  outcome: Outcome,
  verified: Schema.Boolean,
  gatewayReference: Schema.optionalWith(Reference, { exact: true }),
  savedMethod: SavedMethod
})

export const GatewayReplySchema = Schema.Struct({
  status: Schema.Int.pipe(Schema.between(200, 599)),
  body: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(65_536)), { exact: true }),
  headers: Schema.optionalWith(Schema.Record({ key: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9-]{1,64}$/)), value: Schema.String }), { exact: true })
})

const DisputeReportSchema = Schema.Struct({
  event: Schema.Literal("opened", "updated", "closed"),
  gatewayDisputeId: Reference,
  trxId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)),
  amount: Schema.optionalWith(Decimal, { exact: true }),
  currency: Schema.optionalWith(CurrencyCode, { exact: true }),
  reason: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)), { exact: true }),
  evidenceDueBy: Schema.optionalWith(Schema.String.pipe(Schema.filter((text) => !Number.isNaN(Date.parse(text)) || "an ISO 8601 time")), { exact: true }),
  status: Schema.optionalWith(Schema.Literal("needs_response", "under_review"), { exact: true }),
  outcome: Schema.optionalWith(Schema.Literal("won", "lost"), { exact: true })
})

export const DisputeEvidenceReportSchema = Schema.Struct({
  status: Schema.Literal("submitted", "refused"),
  message: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1_000)), { exact: true })
})

export const NotificationReportSchema = Schema.Union(
  Schema.Struct({ ignore: Schema.Literal(true), reply: Schema.optionalWith(GatewayReplySchema, { exact: true }) }),
  Schema.Struct({
    trxId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64)),
    outcome: Outcome,
    amount: Schema.optionalWith(Decimal, { exact: true }),
    currency: Schema.optionalWith(CurrencyCode, { exact: true }),
    gatewayReference: Schema.optionalWith(Reference, { exact: true }),
    verified: Schema.Boolean,
    reply: Schema.optionalWith(GatewayReplySchema, { exact: true }),
    savedMethod: SavedMethod
  }),
  Schema.Struct({ dispute: DisputeReportSchema, reply: Schema.optionalWith(GatewayReplySchema, { exact: true }) })
)

export const SyncReportSchema = Schema.Struct({
  outcome: Outcome,
  amount: Schema.optionalWith(Decimal, { exact: true }),
  currency: Schema.optionalWith(CurrencyCode, { exact: true }),
  gatewayReference: Schema.optionalWith(Reference, { exact: true }),
  savedMethod: SavedMethod
})

export const RefundReportSchema = Schema.Struct({
  status: Schema.Literal("succeeded", "pending", "failed"),
  gatewayRefundReference: Schema.optionalWith(Reference, { exact: true }),
  message: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1_000)), { exact: true })
})

const SignedDecimal = Schema.String.pipe(Schema.pattern(/^-?\d{1,19}(\.\d{1,18})?$/))

export const SettlementReportSchema = Schema.Array(Schema.Struct({
  gatewayReference: Reference,
  type: Schema.Literal("payment", "refund", "dispute", "fee", "payout"),
  amount: SignedDecimal,
  currency: CurrencyCode,
  settledAt: Schema.String.pipe(Schema.maxLength(40))
}))
export const PayoutReportSchema = Schema.Struct({
  status: Schema.Literal("paid", "pending", "failed"),
  reference: Schema.optionalWith(Reference, { exact: true }),
  reason: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(1_000)), { exact: true })
})
