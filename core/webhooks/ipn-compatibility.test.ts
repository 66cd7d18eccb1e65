import { describe, expect, it } from "vitest"
import { ipnBody, ipnSignatureHeader, phpJsonEncoding } from "./ipn-compatibility.js"

describe("IPN compatibility spellings", () => {
  it("writes the body as PHP's json_encode does, with the same values and the exact amount literals", () => {
    const compact = JSON.stringify({ data: { customer_name: "Zoë Ωmega 𝄞", description: "a/b \"q\" \\ \n\u001f\u2028", amount: 0 } })
      .replace('"amount":0', '"amount":12345678901234567.89')
    // PHP's default json_encode spelling: `\/`, lower-case `\uXXXX`, an astral character as its surrogate pair.
    expect(phpJsonEncoding(compact)).toBe(
      '{"data":{"customer_name":"Zo\\u00eb \\u03a9mega \\ud834\\udd1e","description":"a\\/b \\"q\\" \\\\ \\n\\u001f\\u2028","amount":12345678901234567.89}}'
    )
    expect(JSON.parse(phpJsonEncoding(compact))).toEqual(JSON.parse(compact))
    expect(phpJsonEncoding(compact)).toMatch(/^[\x20-\x7e]*$/)
  })

  it("keeps the contract's bytes by default", () => {
    const body = '{"data":{"ipn_url":"https://shop.example/ipn","customer_name":"Zoë"}}'
    expect(ipnBody(body, "compact")).toBe(body)
    expect(ipnBody(body, "php")).toBe('{"data":{"ipn_url":"https:\\/\\/shop.example\\/ipn","customer_name":"Zo\\u00eb"}}')
    expect(ipnSignatureHeader("ab12", "hex")).toBe("ab12")
    expect(ipnSignatureHeader("ab12", "sha256=hex")).toBe("sha256=ab12")
  })
})
