import { describe, expect, it } from "vitest"
import { bodyVariants, compactJsonText } from "./body-variants.js"

describe("body variants", () => {
  it("drops whitespace between tokens only: strings, escapes and number spellings kept", () => {
    const pretty = '{\n  "amount": 100.50,\n  "note": "a  b \\" }",\r\n  "list": [ 1 , 2 ]\n}\n'
    expect(compactJsonText(pretty)).toBe('{"amount":100.50,"note":"a  b \\" }","list":[1,2]}')
  })

  it("offers each distinct change once, never the pasted body itself", () => {
    const compact = '{"a":"caf\u00e9/x"}'
    expect(bodyVariants(compact).map((variant) => variant.body)).toEqual(['{"a":"caf\\u00e9\\/x"}'])
    const pasted = `${compact}\r\n`
    expect(bodyVariants(pasted)).toEqual([
      { change: expect.stringContaining("a line end was added"), body: compact },
      { change: expect.stringContaining("CRLF"), body: `${compact}\n` },
      { change: expect.stringContaining("PHP's spelling"), body: '{"a":"caf\\u00e9\\/x"}' }
    ])
  })
})
