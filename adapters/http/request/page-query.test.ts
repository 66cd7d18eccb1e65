import { describe, expect, it } from "vitest"
import { ListQuery } from "./page-query.js"

const read = (search: string) => {
  const query = new ListQuery(new URLSearchParams(search))
  return { amount: query.amount("amount"), errors: query.errors }
}

describe("ListQuery.amount", () => {
  it("reads a plain decimal exactly, at the fixed scale, however many trailing zeros it is written with", () => {
    expect(read("amount=12.5").amount).toBe(1_250_000_000n)
    expect(read("amount=12.50000000").amount).toBe(1_250_000_000n)
    expect(read("amount=9999999999.99999999").amount).toBe(999_999_999_999_999_999n)
    expect(read("").amount).toBeUndefined()
    expect(read("").errors).toEqual({})
  })

  it("takes an empty value as absent, as every optional input", () => {
    expect(read("amount=")).toEqual({ amount: undefined, errors: {} })
    expect(read("amount=&amount=12.5").amount).toBe(1_250_000_000n)
  })

  it("names the parameter for anything else: zero, a sign, an exponent, too many decimals, too large, repeated", () => {
    for (const search of ["amount=0", "amount=-1", "amount=%2B1", "amount=1e2", "amount=0.000000001", "amount=10000000000", "amount=1&amount=2"]) {
      const { amount, errors } = read(search)
      expect(amount, search).toBeUndefined()
      expect(Object.keys(errors), search).toEqual(["amount"])
    }
  })
})
