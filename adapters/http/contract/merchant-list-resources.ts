import * as Schema from "effect/Schema"
import { RefundResult, Transaction } from "./payment-resources.js"
import { Timestamp } from "./value-schemas.js"

/** The envelope of every newest-first, keyset-paged list, as the events list has it. */
/** A newest-first page of a keyset-paged list (core/shared/keyset-page.ts). */
export const cursorPage = <A, I>(item: Schema.Schema<A, I>) => ({
  data: Schema.Array(item),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Pass as `cursor` for the next page; null on the last." })
})

export const PaymentPage = Schema.Struct(cursorPage(Transaction)).annotations({
  identifier: "PaymentPage",
  description: "Payments, newest first, each as verify-payment answers it."
})

/** The refund endpoint's answer for one refund, with what a list needs to tell refunds apart. */
export const RefundItem = Schema.Struct({
  ...RefundResult.fields,
  reason: Schema.NullOr(Schema.String),
  ref_refund: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotations({
  identifier: "RefundItem",
  description: "A refund as the refund endpoint answered it (its totals those of then), with its reason, ref_refund and time."
})

export const RefundPage = Schema.Struct(cursorPage(RefundItem)).annotations({
  identifier: "RefundPage",
  description: "Refunds, newest first."
})
