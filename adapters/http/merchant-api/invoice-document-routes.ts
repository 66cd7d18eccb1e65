import * as Effect from "effect/Effect"
import { invoiceDocument } from "../../../core/subscriptions/invoice-document.js"
import { InvoiceDocumentKind } from "../../../core/subscriptions/invoice-documents.js"
import { type ListParameter, subscriptionIdInPath, textInPath } from "../contract/parameters.js"
import { queryOf } from "../contract/query-contract.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { BinaryFile } from "../response/binary-file.js"
import { FileAnswer } from "../response/text-file.js"

const invoiceIdInPath = textInPath("invoiceId", "The invoice's id (`id` of an invoice in the subscription's `invoices`).")

const kindParameter: ListParameter<InvoiceDocumentKind | undefined> = {
  name: "kind",
  in: "query",
  required: false,
  description: "`invoice` (the default) or `receipt`: the payment receipt, for a paid invoice only (409 otherwise).",
  schema: InvoiceDocumentKind,
  read: (query) => query.oneOf("kind", InvoiceDocumentKind.literals)
}

const pdf = endpoint({
  method: "get",
  path: "/api/v1/subscriptions/{subscriptionId}/invoices/{invoiceId}/pdf",
  operationId: "invoicePdf",
  summary: "An invoice, or its payment receipt, as a PDF",
  description: "The invoice document (merchant, customer, number, issue date, period, line, total, status), or with `?kind=receipt` " +
    "the receipt of a paid invoice (adding the paid date and the payment's trx_id). Another merchant's or environment's " +
    "subscription, or an invoice not of this subscription, is not found.",
  tag: "Subscriptions",
  security: "merchant-production-default",
  parameters: [subscriptionIdInPath, invoiceIdInPath],
  query: queryOf({ kind: kindParameter }),
  success: { status: 200, description: "The PDF, as an attachment named by the invoice number.", schema: FileAnswer, files: ["application/pdf"] },
  errors: ["SubscriptionNotFound", "InvoiceNotFound", "InvoiceNotPaid"],
  handler: ({ kind }) =>
    Effect.gen(function*() {
      const document = yield* invoiceDocument(yield* CurrentMerchant, yield* subscriptionIdInPath.read, yield* invoiceIdInPath.read, kind ?? "invoice")
      return new BinaryFile("application/pdf", document.bytes, document.filename)
    })
})

/** Issue 36: invoice and receipt documents. */
export const invoiceDocumentEndpoints = [pdf] as const

