import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import type { InvoiceDocumentFacts } from "../../core/subscriptions/invoice-documents.js"
import { pdfText } from "../../testing/pdf-text.js"
import { render } from "./pdf-invoice-documents.js"

const facts: InvoiceDocumentFacts = {
  merchantName: "Zoë's Coffee Club",
  environment: "production",
  number: "INV-2026-000042",
  reference: "INV-7d1f0c3e-2a4b-4c5d-8e9f-0a1b2c3d4e5f",
  issuedOn: "2026-03-01",
  customerName: "Ada Lovelace",
  customerEmail: "ada@example.test",
  period: "2026-03-01 to 2026-04-01",
  lines: [{ description: "Monthly beans, 1 kg", amount: "19.99" }],
  total: "19.99",
  currency: "EUR",
  status: "paid",
  paidOn: "2026-03-02",
  paymentTrxId: "PROD_01J0000000000000000000000A"
}

const textOf = async (kind: "invoice" | "receipt", of: InvoiceDocumentFacts = facts) => {
  const bytes = await Effect.runPromise(render(kind, of))
  expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-")
  return pdfText(bytes)
}

describe("invoice documents as PDF (pdfkit), read back by a PDF parser", () => {
  it("an invoice names the merchant, customer, number, dates, period, line, total and status", async () => {
    const text = await textOf("invoice", { ...facts, status: "pending", paidOn: null, paymentTrxId: null })
    for (const expected of [
      "Zoë's Coffee Club", "Invoice INV-2026-000042", "Issue date: 2026-03-01", "Period: 2026-03-01 to 2026-04-01",
      "Ada Lovelace <ada@example.test>", "Monthly beans, 1 kg", "19.99 EUR", "Total", "Open (awaiting payment)"
    ]) expect(text).toContain(expected)
    expect(text).not.toContain("Paid on")
    expect(text).not.toContain("SANDBOX")
  })

  it("a receipt adds the paid date and the payment's trx id", async () => {
    const text = await textOf("receipt")
    for (const expected of ["Payment receipt INV-2026-000042", "Paid on: 2026-03-02", "Payment: PROD_01J0000000000000000000000A", "Total paid", "19.99 EUR"]) {
      expect(text).toContain(expected)
    }
  })

  it("a sandbox document says so, and a long description wraps without losing the amount", async () => {
    const description = "A very long subscription description ".repeat(8).trim()
    const text = await textOf("invoice", { ...facts, environment: "sandbox", lines: [{ description, amount: "1234567.89" }], total: "1234567.89" })
    expect(text).toContain("SANDBOX")
    expect(text.replace(/\s+/g, " ")).toContain(description)
    expect(text).toContain("1234567.89 EUR")
  })
})
