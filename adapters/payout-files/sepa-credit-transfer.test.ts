import { type Document, DOMParser, type Element } from "@xmldom/xmldom"
import { describe, expect, it } from "vitest"
import { Amount } from "../../core/money/amount.js"
import type { Payout } from "../../core/payouts/payout.js"
import type { PayoutTransfer } from "../../core/payouts/payout-file.js"
import { MerchantId } from "../../core/shared/ids.js"
import { fromSeconds } from "../../core/shared/instant.js"
import { SEPA_PAIN_FORMAT, SepaFileRefused, sepaCreditTransfer } from "./sepa-credit-transfer.js"

const NS = `urn:iso:std:iso:20022:tech:xsd:${SEPA_PAIN_FORMAT}`
const DEBTOR = { name: "Example Platform GmbH", iban: "DE02120300000000202051", bic: "BYLADEM1001" }

const transfer = (n: number, amount: string, bic: string | null = "COBADEFFXXX"): PayoutTransfer => {
  const id = `po_${n.toString(16).padStart(32, "0")}`
  const payout: Payout = {
    id, merchantId: MerchantId(1), environment: "production", currency: "EUR", amount: Amount(0n), destinationId: "pd_1",
    status: "approved", reason: null, reference: null, rail: "manual", approvedAt: fromSeconds(0), createdAt: fromSeconds(0), updatedAt: fromSeconds(0)
  }
  return { payout, amount, accountHolder: `Shop ${n} & Söhne <GmbH>`, iban: "DE89370400440532013000", bic, reference: id }
}

const parse = (xml: string) => new DOMParser().parseFromString(xml, "application/xml")
const texts = (doc: Document, name: string) => Array.from(doc.getElementsByTagNameNS(NS, name), (node: Element) => node.textContent)

/** Cents of an amount as SEPA writes it, exactly. */
const cents = (text: string | null) => {
  const [whole, fraction] = text!.split(".")
  expect(fraction).toHaveLength(2)
  return BigInt(whole!) * 100n + BigInt(fraction!)
}

const write = (transfers: ReadonlyArray<PayoutTransfer>) =>
  sepaCreditTransfer({ debtor: DEBTOR, transfers, messageId: "MP-20261127-P-120000", createdAt: new Date("2026-11-27T12:00:00Z"), executionDate: "2026-11-27" })

describe("SEPA credit transfer file", () => {
  it("parses back as a pain.001.001.09 document whose control sums are the exact sum and whose count is the transfers'", async () => {
    // Float sums of these are wrong: 0.1 + 0.2 = 0.30000000000000004, and 9999999.99 * 3 + 0.30 drifts.
    const amounts = ["0.10", "0.20", "9999999.99", "9999999.99", "9999999.99", "0.01"]
    const doc = parse(await write(amounts.map((amount, n) => transfer(n + 1, amount))))
    expect(doc.documentElement!.namespaceURI).toBe(NS)
    expect(doc.documentElement!.getElementsByTagNameNS(NS, "CstmrCdtTrfInitn")).toHaveLength(1)
    expect(texts(doc, "MsgId")).toEqual(["MP-20261127-P-120000"])
    expect(texts(doc, "NbOfTxs")).toEqual(["6", "6"])
    const exact = amounts.reduce((sum, amount) => sum + cents(amount), 0n)
    expect(exact).toBe(3_000_000_028n)
    expect(texts(doc, "CtrlSum")).toEqual(["30000000.28", "30000000.28"])
    const instructed = texts(doc, "InstdAmt")
    expect(instructed).toEqual(amounts)
    expect(instructed.reduce((sum, amount) => sum + cents(amount), 0n)).toBe(exact)
    expect(Array.from(doc.getElementsByTagNameNS(NS, "InstdAmt"), (node) => (node as Element).getAttribute("Ccy"))).toEqual(amounts.map(() => "EUR"))
    expect(texts(doc, "EndToEndId")).toEqual(amounts.map((_, n) => transfer(n + 1, "1").payout.id))
    expect(texts(doc, "Ustrd")).toEqual(amounts.map((_, n) => transfer(n + 1, "1").reference))
    // The debtor is the platform; each creditor's name arrives whole, its markup escaped.
    const debtor = doc.getElementsByTagNameNS(NS, "Dbtr")[0]!
    expect(debtor.getElementsByTagNameNS(NS, "Nm")[0]!.textContent).toBe(DEBTOR.name)
    expect(texts(doc, "IBAN")).toEqual([DEBTOR.iban, ...amounts.map(() => "DE89370400440532013000")])
    const creditors = Array.from(doc.getElementsByTagNameNS(NS, "Cdtr"), (node) => (node as Element).getElementsByTagNameNS(NS, "Nm")[0]!.textContent)
    expect(creditors[0]).toBe("Shop 1 & Söhne <GmbH>")
    expect(texts(doc, "ReqdExctnDt").length + texts(doc, "Dt").length).toBeGreaterThan(0)
  })

  it("writes a creditor without a BIC, and refuses what SEPA does not take with the library's words", async () => {
    const doc = parse(await write([transfer(1, "12.50", null)]))
    expect(texts(doc, "CtrlSum")).toEqual(["12.50", "12.50"])
    await expect(write([{ ...transfer(2, "5.00"), iban: "DE00000000000000000000" }])).rejects.toBeInstanceOf(SepaFileRefused)
    await expect(write([{ ...transfer(3, "5.00"), accountHolder: "x".repeat(71) }])).rejects.toBeInstanceOf(SepaFileRefused)
  })
})
