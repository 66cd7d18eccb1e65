import { describe, expect, it } from "vitest"
import { BodyFields } from "../request/body-fields.js"
import { bic, iban, ibanProblem } from "./bank-account-fields.js"

const read = (rule: ReturnType<typeof iban> | ReturnType<typeof bic>, value: unknown) => {
  const body = { field: value }
  const fields = new BodyFields(body, { emptyIsValue: false })
  return { value: rule.read(fields, "field", body), fields }
}

describe("IBAN and BIC fields", () => {
  it("take the printed form and keep the electronic one", () => {
    expect(read(iban({ required: true }), "de89 3704 0044 0532 0130 00").value).toBe("DE89370400440532013000")
    expect(read(bic({}), "cobade ffxxx").value).toBe("COBADEFFXXX")
  })

  it("say what is wrong with an IBAN in words a merchant can act on", () => {
    expect(ibanProblem("DE89370400440532013000")).toBeUndefined()
    expect(ibanProblem("DE89370400440532013001")).toBe("The iban field's check digits do not match: it has a typing error.")
    expect(ibanProblem("DE8937040044053201300")).toBe("The iban field has the wrong length for an IBAN of DE.")
    expect(ibanProblem("XX89370400440532013000")).toContain("country that uses IBANs")
    expect(ibanProblem("CH4431999123000889012")).toContain("QR-IBAN")
  })

  it("refuse a bad IBAN or BIC without keeping a value", () => {
    expect(read(iban({ required: true }), "DE89 3704 0044 0532 0130 01").value).toBeUndefined()
    expect(read(bic({}), "DEUT").value).toBeUndefined()
  })
})
