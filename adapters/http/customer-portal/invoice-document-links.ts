import type { Invoice } from "../../../core/subscriptions/subscription.js"
import type { PortalMessages } from "./portal-messages.js"

/** A document of an invoice the customer can open (its PDF, a payment receipt). */
export interface InvoiceDocumentLink {
  readonly href: string
  /** Plain text, in the page's language; the page escapes it. */
  readonly label: string
}

/** Where the portal serves an invoice's document, under its own path (the session's cookie reaches it). */
export const portalInvoiceDocumentPath = (portalBase: string, invoiceId: string, kind: "invoice" | "receipt") =>
  `${portalBase}/invoices/${encodeURIComponent(invoiceId)}/pdf${kind === "receipt" ? "?kind=receipt" : ""}`

/**
 * The documents the portal links beside an invoice: its PDF (every invoice the customer may see),
 * and its receipt once paid. A void or expired invoice's PDF says so itself.
 */
export const invoiceDocumentLinks = (invoice: Invoice, portalBase: string, t: Pick<PortalMessages, "invoicePdf" | "receiptPdf">): ReadonlyArray<InvoiceDocumentLink> => [
  { href: portalInvoiceDocumentPath(portalBase, invoice.id, "invoice"), label: t.invoicePdf },
  ...(invoice.status === "paid" ? [{ href: portalInvoiceDocumentPath(portalBase, invoice.id, "receipt"), label: t.receiptPdf }] : [])
]
