import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { InvoiceStatus } from "./subscription.js"

/** An invoice's document, or, once it is paid, its payment receipt. */
export const InvoiceDocumentKind = Schema.Literal("invoice", "receipt")
export type InvoiceDocumentKind = typeof InvoiceDocumentKind.Type

/** One line of the document, its amount already written out exactly (core/money/format.ts). */
export interface InvoiceDocumentLine {
  readonly description: string
  readonly amount: string
}

/**
 * What a document says, every value already text: the renderer lays it out and decides nothing, so
 * two renderers (a PDF, some later HTML) cannot disagree on an amount or a date. Amounts come from
 * Amount by integer arithmetic in the currency's exponent; dates are UTC calendar dates.
 */
export interface InvoiceDocumentFacts {
  readonly merchantName: string
  readonly environment: Environment
  readonly number: string
  /** The internal reference (the payment's ref_trx), printed small for support. */
  readonly reference: string
  readonly issuedOn: string
  readonly customerName: string | null
  readonly customerEmail: string
  /** "2026-01-31 to 2026-02-28", or null for an invoice without a period. */
  readonly period: string | null
  readonly lines: ReadonlyArray<InvoiceDocumentLine>
  readonly total: string
  readonly currency: string
  readonly status: InvoiceStatus
  /** Receipts only: when it was paid and the payment's trx id. */
  readonly paidOn: string | null
  readonly paymentTrxId: string | null
}

/**
 * Renders invoice documents to bytes (a PDF). A port so core stays free of any document library: the
 * kit's adapter (adapters/documents/pdf-invoice-documents.ts) loads its library on first use only.
 */
export class InvoiceDocuments extends Context.Tag("merchant-payments/InvoiceDocuments")<
  InvoiceDocuments,
  { readonly render: (kind: InvoiceDocumentKind, facts: InvoiceDocumentFacts) => Effect.Effect<Uint8Array> }
>() {}

/** No such invoice on this subscription, or the subscription is not the caller's. */
export class InvoiceNotFound extends Schema.TaggedError<InvoiceNotFound>()("InvoiceNotFound", {
  invoiceId: Schema.String
}) {}

/** A receipt was asked for an invoice that is not paid. */
export class InvoiceNotPaid extends Schema.TaggedError<InvoiceNotPaid>()("InvoiceNotPaid", {
  invoiceId: Schema.String,
  status: Schema.String
}) {}
