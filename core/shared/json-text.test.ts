import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ExactNumber, renderJson } from "./json-text.js"

describe("exact JSON text", () => {
  it("writes exact numbers digit for digit and everything else as JSON.stringify would", () => {
    const value = {
      amount: new ExactNumber("9999999999.99999999"),
      small: new ExactNumber("0.00000001"),
      list: [new ExactNumber("-3.2"), 1, "two", null, true],
      nested: { text: "quote \" and ✓ and \u2028", skipped: undefined },
      empty: {},
      none: []
    }
    const text = renderJson(value)
    expect(text).toBe(
      '{"amount":9999999999.99999999,"small":0.00000001,"list":[-3.2,1,"two",null,true],' +
        '"nested":{"text":"quote \\" and ✓ and \u2028"},"empty":{},"none":[]}'
    )
    const plain = { a: 1, b: ["x", { c: false }], d: "é" }
    expect(renderJson(plain)).toBe(JSON.stringify(plain))
  })

  it("refuses anything but a plain decimal as an exact number", () => {
    for (const bad of ["1e5", "NaN", "01", "1.", ".5", "+1", ""]) expect(() => new ExactNumber(bad)).toThrow(RangeError)
  })

  it("writes any JSON value without exact numbers exactly as JSON.stringify does (property)", () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(renderJson(value)).toBe(JSON.stringify(value))
    }), { numRuns: 500 })
  })
})
