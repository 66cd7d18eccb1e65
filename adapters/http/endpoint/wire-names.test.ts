import { describe, expect, it } from "vitest"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { onTheWire } from "./wire-names.js"

describe("core field names on the wire", () => {
  it("says a core input name in snake_case and leaves the edge's own names alone", () => {
    const refusal = new ValidationFailed({ errors: { startsAt: ["past"], currency_code: ["unknown"] }, code: "VALIDATION_FAILED" })
    expect(onTheWire(refusal).errors).toEqual({ starts_at: ["past"], currency_code: ["unknown"] })
  })

  it("takes the endpoint's own name where the body calls the input otherwise, and keeps the code", () => {
    const refusal = ValidationFailed.field("amount", "too small", "INVALID_AMOUNT")
    const wire = onTheWire(refusal, { amount: "payment_amount" })
    expect(wire.errors).toEqual({ payment_amount: ["too small"] })
    expect(wire.code).toBe("INVALID_AMOUNT")
  })

  it("keeps every message when two names meet under one", () => {
    const refusal = new ValidationFailed({ errors: { feePercent: ["a"], fee_percent: ["b"] }, code: "INVALID_AMOUNT" })
    expect(onTheWire(refusal).errors).toEqual({ fee_percent: ["a", "b"] })
  })
})
