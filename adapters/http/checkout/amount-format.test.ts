import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatAmount } from "./amount-format.js"
import { LOCALES } from "./locale.js"

/** Back to plain digits: every locale's digits to 0-9, separators and the code dropped, the decimal mark kept as "." */
const digitsOf = (shown: string, exponent: number): string => {
  const western = shown.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x0660)).replace(/[\u06f0-\u06f9]/g, (d) => String(d.charCodeAt(0) - 0x06f0))
  const number = western.replace(/\s*[A-Z]{3,}$/, "")
  const digits = number.replace(/[^0-9]/g, "")
  return exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

describe("formatAmount", () => {
  it("writes each language's own way, with the currency's minor digits", () => {
    expect(formatAmount("1234.50", "USD", 2, "en")).toBe("1,234.50 USD")
    expect(formatAmount("1500", "JPY", 0, "en")).toBe("1,500 JPY")
    expect(formatAmount("2.500", "KWD", 3, "en")).toBe("2.500 KWD")
    expect(formatAmount("1234.50", "EUR", 2, "fr").replace(/\s/g, " ")).toBe("1 234,50 EUR")
    expect(digitsOf(formatAmount("1234.50", "USD", 2, "ar"), 2)).toBe("1234.50")
  })

  it("keeps every digit of any amount, in every language (no float on the way)", () => {
    fc.assert(fc.property(
      fc.bigInt({ min: 0n, max: 10n ** 30n }),
      fc.constantFrom(0, 2, 3, 8),
      fc.constantFrom(...LOCALES),
      (minor, exponent, locale) => {
        const text = minor.toString().padStart(exponent + 1, "0")
        const decimal = exponent === 0 ? text : `${text.slice(0, -exponent)}.${text.slice(-exponent)}`
        expect(digitsOf(formatAmount(decimal, "USD", exponent, locale), exponent)).toBe(decimal)
      }
    ), { numRuns: 500 })
    // A value no double holds: 2^53 + 1, with cents.
    expect(formatAmount("9007199254740993.01", "USD", 2, "en")).toBe("9,007,199,254,740,993.01 USD")
  })
})
