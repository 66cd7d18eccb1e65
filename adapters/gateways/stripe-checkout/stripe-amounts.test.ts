import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fromStripeMinor, stripeAmountParam, stripeExponent, toStripeMinor } from "./stripe-amounts.js"

const CURRENCIES = ["USD", "EUR", "JPY", "KRW", "MGA", "KWD", "BHD", "TND", "ISK", "IQD", "usd", "jpy", "kwd"] as const

/** A decimal with at most `exponent` fraction digits, possibly with leading zeros and a short fraction. */
const decimalWithin = (exponent: number) =>
  fc.tuple(fc.stringMatching(/^\d{1,12}$/), fc.option(fc.stringMatching(new RegExp(`^\\d{1,${Math.max(exponent, 1)}}$`)), { nil: undefined }))
    .filter(([, fraction]) => exponent > 0 || fraction === undefined)
    .map(([whole, fraction]) => (fraction === undefined ? whole : `${whole}.${fraction}`))

/** The one way Stripe's digits write a value: no leading zeros, exactly `exponent` fraction digits. */
const canonical = (decimal: string, exponent: number): string => {
  const [whole, fraction = ""] = decimal.split(".")
  const integer = BigInt(whole!).toString()
  return exponent === 0 ? integer : `${integer}.${fraction.padEnd(exponent, "0")}`
}

describe("Stripe's exponents", () => {
  it("are 0 for zero-decimal currencies, 3 for three-decimal ones and 2 otherwise, in any case", () => {
    for (const code of ["BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF", "jpy"]) {
      expect(stripeExponent(code)).toBe(0)
    }
    for (const code of ["BHD", "JOD", "KWD", "OMR", "TND", "kwd"]) expect(stripeExponent(code)).toBe(3)
    for (const code of ["USD", "EUR", "ISK", "IQD", "HUF", "usd"]) expect(stripeExponent(code)).toBe(2)
  })
})

describe("toStripeMinor", () => {
  it("writes exact decimals in Stripe's integer units", () => {
    expect(toStripeMinor("12.50", "USD")).toBe(1250n)
    expect(toStripeMinor("12.5", "USD")).toBe(1250n)
    expect(toStripeMinor("0.01", "EUR")).toBe(1n)
    expect(toStripeMinor("1500", "JPY")).toBe(1500n)
    expect(toStripeMinor("1.234", "KWD")).toBe(1234n)
    expect(toStripeMinor("0", "USD")).toBe(0n)
    expect(toStripeMinor("99999999999999999.99", "USD")).toBe(9999999999999999999n)
  })

  it("accepts zeros past Stripe's digits (the kit writes ISO's) and refuses any other digit there", () => {
    expect(toStripeMinor("1000.00", "MGA")).toBe(1000n)
    expect(toStripeMinor("1.500", "IQD")).toBe(150n)
    expect(() => toStripeMinor("12.345", "USD")).toThrow(/USD amounts have at most 2 decimal places/)
    expect(() => toStripeMinor("1.5", "JPY")).toThrow(/at most 0 decimal places/)
    expect(() => toStripeMinor("1.2345", "KWD")).toThrow(/at most 3 decimal places/)
  })

  it("refuses anything but a plain non-negative decimal", () => {
    for (const text of ["", "-1", "+1", "1e3", ".5", "5.", "1,00", " 1", "0x10", "NaN", "١٢"]) {
      expect(() => toStripeMinor(text, "USD"), text).toThrow(/plain non-negative decimal/)
    }
  })

  it("round-trips any decimal within Stripe's digits: decimal -> minor -> the same value written canonically", () => {
    for (const currency of CURRENCIES) {
      const exponent = stripeExponent(currency)
      fc.assert(fc.property(decimalWithin(exponent), (decimal) => {
        expect(fromStripeMinor(toStripeMinor(decimal, currency), currency)).toBe(canonical(decimal, exponent))
      }))
    }
  })

  it("refuses every decimal with a non-zero digit past Stripe's exponent", () => {
    fc.assert(fc.property(
      fc.constantFrom(...CURRENCIES),
      fc.stringMatching(/^\d{1,9}$/),
      fc.stringMatching(/^\d{0,3}[1-9]\d{0,2}$/),
      (currency, whole, tail) => {
        const exponent = stripeExponent(currency)
        const decimal = `${whole}.${"0".repeat(exponent)}${tail}`
        expect(() => toStripeMinor(decimal, currency)).toThrow()
      }
    ))
  })
})

describe("fromStripeMinor", () => {
  it("writes Stripe's integers with Stripe's digits", () => {
    expect(fromStripeMinor(1250, "usd")).toBe("12.50")
    expect(fromStripeMinor(5, "USD")).toBe("0.05")
    expect(fromStripeMinor(0, "USD")).toBe("0.00")
    expect(fromStripeMinor(1500, "jpy")).toBe("1500")
    expect(fromStripeMinor(1234, "kwd")).toBe("1.234")
    expect(fromStripeMinor(7n, "KWD")).toBe("0.007")
  })

  it("round-trips every integer amount: minor -> decimal -> minor", () => {
    fc.assert(fc.property(fc.constantFrom(...CURRENCIES), fc.bigInt({ min: 0n, max: 10n ** 20n }), (currency, minor) => {
      expect(toStripeMinor(fromStripeMinor(minor, currency), currency)).toBe(minor)
    }))
  })

  it("refuses numbers that are not exact non-negative integers", () => {
    expect(() => fromStripeMinor(12.5, "USD")).toThrow(/not an exact integer/)
    expect(() => fromStripeMinor(2 ** 53, "USD")).toThrow(/not an exact integer/)
    expect(() => fromStripeMinor(-1, "USD")).toThrow(/negative/)
  })
})

describe("stripeAmountParam", () => {
  it("passes integers up to 2^53 - 1 exactly and refuses larger ones rather than rounding", () => {
    expect(stripeAmountParam(1250n)).toBe(1250)
    expect(stripeAmountParam(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER)
    expect(() => stripeAmountParam(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(/too large/)
  })
})
