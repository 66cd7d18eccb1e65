import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { fromIsoString, type Instant } from "../shared/instant.js"
import { csvRecords, parseSettlementCsv } from "./settlement-csv.js"

const rules = {
  exponentOf: (code: string) => ({ USD: 2, JPY: 0 } as Record<string, number | undefined>)[code],
  from: fromIsoString("2030-01-01T00:00:00Z") as Instant,
  to: fromIsoString("2030-02-01T00:00:00Z") as Instant
}

const refusal = (text: string) => {
  const parsed = parseSettlementCsv(text, rules)
  return Either.isLeft(parsed) ? parsed.left.errors : undefined
}

describe("the settlement CSV", () => {
  it("reads RFC 4180 records: quoted commas, doubled quotes and line breaks, CRLF or LF, a leading BOM", () => {
    expect([...csvRecords("\ufeffa,\"b,c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",x\n")]).toEqual([["a", "b,c", "say \"hi\""], ["two\nlines", "x"]])
  })

  it("takes its columns in any order, ignores others, and keeps amounts exact and signed in the currency's digits", () => {
    const parsed = parseSettlementCsv(
      "type,note,amount,currency,gateway_reference,settled_at,environment,gateway\n" +
        "refund,\"a, note\",-12.50,USD,re_1,2030-01-03T10:00:00+01:00,sandbox,card-usd\n" +
        "payment,,1500,JPY,\"cs,1\",2030-01-31T23:59:59.999999Z,sandbox,card-usd\n",
      rules
    )
    expect(parsed).toEqual(Either.right({
      gateway: "card-usd",
      environment: "sandbox",
      lines: [
        { lineNo: 2, gatewayReference: "re_1", type: "refund", amount: Amount(-1_250_000_000n), currency: "USD", settledAt: fromIsoString("2030-01-03T09:00:00Z") },
        { lineNo: 3, gatewayReference: "cs,1", type: "payment", amount: Amount(150_000_000_000n), currency: "JPY", settledAt: fromIsoString("2030-01-31T23:59:59.999999Z") }
      ]
    }))
  })

  const HEADER = "gateway,environment,gateway_reference,type,amount,currency,settled_at\n"
  const GOOD = "card-usd,sandbox,cs_1,payment,1.00,USD,2030-01-02T00:00:00Z\n"

  it("refuses the file at its first bad line and column, in words an operator can act on", () => {
    expect(refusal(HEADER + GOOD + "card-usd,sandbox,cs_2,payment,1.001,USD,2030-01-02T00:00:00Z\n")).toEqual({
      amount: ["Line 3, column amount: The amount must not have more than 2 decimal places in this currency."]
    })
    expect(refusal(HEADER + GOOD + "card-eur,sandbox,cs_2,payment,1.00,USD,2030-01-02T00:00:00Z\n")).toEqual({
      gateway: ["Line 3, column gateway: every line must be of one gateway (card-usd)."]
    })
    expect(refusal(HEADER + GOOD + "card-usd,production,cs_2,payment,1.00,USD,2030-01-02T00:00:00Z\n")?.["environment"]).toEqual([
      "Line 3, column environment: every line must be of one environment (sandbox)."
    ])
    expect(refusal(HEADER + GOOD + GOOD)).toEqual({ gateway_reference: ["Line 3, column gateway_reference: another payment line has this reference."] })
    // A dispute has two lines, withdrawn and (when won) reinstated: only a second of one sign is refused.
    const withdrawn = "card-usd,sandbox,du_1,dispute,-5.00,USD,2030-01-02T00:00:00Z\n"
    const reinstated = "card-usd,sandbox,du_1,dispute,5.00,USD,2030-01-20T00:00:00Z\n"
    expect(refusal(HEADER + withdrawn + reinstated)).toBeUndefined()
    expect(refusal(HEADER + withdrawn + reinstated + withdrawn)).toEqual({ gateway_reference: ["Line 4, column gateway_reference: another dispute line has this reference and sign."] })
    expect(refusal(HEADER + "card-usd,sandbox,cs_1,chargeback,1.00,USD,2030-01-02T00:00:00Z\n")?.["type"]?.[0]).toMatch(/^Line 2, column type: it must be one of payment, refund/)
    expect(refusal(HEADER + "card-usd,sandbox,cs_1,payment,1.00,XQQ,2030-01-02T00:00:00Z\n")).toEqual({
      currency: ["Line 2, column currency: \"XQQ\" is not a currency this deployment knows."]
    })
    expect(refusal(HEADER + "card-usd,sandbox,cs_1,payment,1.00,USD,2030-01-02\n")?.["settled_at"]?.[0]).toMatch(/^Line 2, column settled_at: it must be an ISO 8601/)
    expect(refusal(HEADER + "card-usd,sandbox,cs_1,payment,1.00,USD\n")).toEqual({ settled_at: ["Line 2, column settled_at: the record has fewer fields than the header."] })
    expect(refusal(HEADER + "card-usd,sandbox,\"cs_1,payment,1.00,USD,2030-01-02T00:00:00Z\n")).toEqual({ gateway: ["Line 2, column gateway: a quoted field is never closed."] })
    expect(refusal(HEADER)).toEqual({ gateway: ["Line 2, column gateway: the report has no lines."] })
  })

  it("lets fees and payouts share a reference: only the lines matched to the kit must be one per reference", () => {
    const fee = "card-usd,sandbox,cs_1,fee,-0.30,USD,2030-01-02T00:00:00Z\n"
    const parsed = parseSettlementCsv(HEADER + GOOD + fee + fee, rules)
    expect(Either.isRight(parsed) && parsed.right.lines.map((line) => line.type)).toEqual(["payment", "fee", "fee"])
  })
})
