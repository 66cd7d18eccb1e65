import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  type InvoiceDocumentFacts,
  type InvoiceDocumentKind,
  InvoiceDocuments
} from "../../core/subscriptions/invoice-documents.js"

type PdfDocumentClass = typeof import("pdfkit")

/**
 * pdfkit is imported on the first render, once per process: an embedder that never renders a
 * document never loads it (nor its fonts). A failed import is not cached, so a later call retries.
 */
let pdfkit: Promise<PdfDocumentClass> | undefined
const loadPdfkit = (): Promise<PdfDocumentClass> => {
  pdfkit ??= import("pdfkit").then((module) => module.default, (error: unknown) => {
    pdfkit = undefined
    throw error
  })
  return pdfkit
}

const TITLES: Record<InvoiceDocumentKind, string> = { invoice: "Invoice", receipt: "Payment receipt" }

const STATUS_WORDS: Record<InvoiceDocumentFacts["status"], string> = {
  pending: "Open (awaiting payment)",
  paid: "Paid",
  expired: "Expired (its checkout ran out)",
  void: "Void"
}

/** Writes the document with pdfkit's built-in Helvetica (no font files shipped or embedded). */
const write = (PDFDocument: PdfDocumentClass, kind: InvoiceDocumentKind, facts: InvoiceDocumentFacts): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const title = TITLES[kind]
    const doc = new PDFDocument({
      size: "A4",
      margin: 56,
      info: { Title: `${title} ${facts.number}`, Author: facts.merchantName, Subject: `${title} ${facts.number}` }
    })
    const chunks: Array<Uint8Array> = []
    doc.on("data", (chunk: Uint8Array) => chunks.push(chunk))
    doc.on("end", () => resolve(Buffer.concat(chunks)))
    doc.on("error", reject)

    const left = doc.page.margins.left
    const width = doc.page.width - doc.page.margins.left - doc.page.margins.right
    const pair = (label: string, value: string) => {
      doc.font("Helvetica-Bold").text(`${label}: `, { continued: true }).font("Helvetica").text(value)
    }

    doc.font("Helvetica-Bold").fontSize(20).text(facts.merchantName)
    doc.moveDown(0.3).fontSize(14).text(`${title} ${facts.number}`)
    if (facts.environment === "sandbox") doc.font("Helvetica").fontSize(9).fillColor("#a33").text("SANDBOX: not a real charge").fillColor("black")
    doc.moveDown().fontSize(10)
    pair("Invoice number", facts.number)
    pair("Issue date", facts.issuedOn)
    if (facts.period !== null) pair("Period", facts.period)
    pair("Status", STATUS_WORDS[facts.status])
    doc.moveDown()
    pair("Billed to", facts.customerName === null ? facts.customerEmail : `${facts.customerName} <${facts.customerEmail}>`)
    if (kind === "receipt") {
      pair("Paid on", facts.paidOn ?? "")
      pair("Payment", facts.paymentTrxId ?? "")
    }

    // Lines: description on the left, amount right-aligned in its own column.
    doc.moveDown(1.5)
    const amountWidth = 140
    const row = (description: string, amount: string, bold: boolean) => {
      const y = doc.y
      doc.font(bold ? "Helvetica-Bold" : "Helvetica")
      doc.text(description, left, y, { width: width - amountWidth - 10 })
      const after = doc.y
      doc.text(amount, left + width - amountWidth, y, { width: amountWidth, align: "right" })
      doc.y = Math.max(after, doc.y)
      doc.x = left
    }
    row("Description", `Amount (${facts.currency})`, true)
    doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).stroke()
    doc.moveDown(0.5)
    for (const line of facts.lines) row(line.description, `${line.amount} ${facts.currency}`, false)
    doc.moveTo(left, doc.y + 2).lineTo(left + width, doc.y + 2).stroke()
    doc.moveDown(0.5)
    row(kind === "receipt" ? "Total paid" : "Total", `${facts.total} ${facts.currency}`, true)

    doc.moveDown(2).font("Helvetica").fontSize(8).fillColor("#555")
      .text(`Reference ${facts.reference}`, left, doc.y, { width })
    doc.end()
  })

export const render = (kind: InvoiceDocumentKind, facts: InvoiceDocumentFacts): Effect.Effect<Uint8Array> =>
  // A failure here is a defect (the library missing or broken), not something the caller can fix.
  Effect.orDie(Effect.tryPromise(() => loadPdfkit().then((PDFDocument) => write(PDFDocument, kind, facts))))

/** Invoice and receipt PDFs through pdfkit. */
export const layer = Layer.succeed(InvoiceDocuments, InvoiceDocuments.of({ render }))
