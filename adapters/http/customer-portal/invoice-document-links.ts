import type { Invoice } from "../../../core/subscriptions/subscription.js"

/** A document of an invoice the customer can open (its PDF, a payment receipt). */
export interface InvoiceDocumentLink {
  readonly href: string
  /** Plain text, in the page's language; the page escapes it. */
  readonly label: string
}

/**
 * The documents the portal links beside an invoice. None yet: invoice PDFs and receipts (core use
 * case `invoiceDocument`, issue 36 item 6) are built in parallel and are linked from here, the one
 * place the portal's invoice list asks. `portalBase` is the portal's absolute address, for links under it.
 */
export const invoiceDocumentLinks = (_invoice: Invoice, _portalBase: string): ReadonlyArray<InvoiceDocumentLink> => []
