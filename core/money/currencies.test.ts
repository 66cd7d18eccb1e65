import { Either, Option, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { CurrencyCode, ISO_CURRENCY_EXPONENTS, defaultCurrencyCatalog, heldExponent, makeCurrencyCatalog } from "./currencies.js"

const catalogWith = (cryptoCodes: ReadonlyArray<string>) => {
  const result = makeCurrencyCatalog({ cryptoCodes })
  if (Either.isLeft(result)) throw new Error(`expected a catalog, got ${result.left.message}`)
  return result.right
}

const configError = (cryptoCodes: ReadonlyArray<string>) => {
  const result = makeCurrencyCatalog({ cryptoCodes })
  if (Either.isRight(result)) throw new Error("expected InvalidCurrencyConfig")
  return result.left
}

describe("ISO table", () => {
  it("has ISO's exponents", () => {
    const expected: Record<string, number> = {
      USD: 2, EUR: 2, GBP: 2, CHF: 2, INR: 2, MGA: 2, MRU: 2, HUF: 2,
      JPY: 0, KRW: 0, VND: 0, ISK: 0, CLP: 0, XOF: 0, XAF: 0, XPF: 0, UGX: 0, PYG: 0,
      KWD: 3, BHD: 3, OMR: 3, JOD: 3, TND: 3, IQD: 3, LYD: 3,
      CLF: 4, UYW: 4
    }
    for (const [code, exponent] of Object.entries(expected)) {
      expect(defaultCurrencyCatalog.exponentOf(code), code).toEqual(Option.some(exponent))
    }
  })

  it("holds only 3-letter codes with payable minor units", () => {
    expect(ISO_CURRENCY_EXPONENTS.size).toBeGreaterThan(150)
    for (const [code, exponent] of ISO_CURRENCY_EXPONENTS) {
      expect(code).toMatch(/^[A-Z]{3}$/)
      expect([0, 2, 3, 4]).toContain(exponent)
    }
    for (const code of ["XAU", "XXX", "XTS", "XDR", "HRK", "usd", "USDC", ""]) {
      expect(defaultCurrencyCatalog.isKnown(code), code).toBe(false)
      expect(defaultCurrencyCatalog.exponentOf(code)).toEqual(Option.none())
    }
  })

  it("lists its codes sorted and without duplicates", () => {
    const codes = defaultCurrencyCatalog.codes()
    expect(codes).toEqual([...codes].sort())
    expect(new Set(codes).size).toBe(codes.length)
    expect(codes.length).toBe(ISO_CURRENCY_EXPONENTS.size)
  })
})

describe("crypto codes", () => {
  it("adds configured codes at exponent 8", () => {
    const catalog = catalogWith(["BTC", "USDC", "ETH2", "SHIB000000"])
    expect(catalog.exponentOf("BTC")).toEqual(Option.some(8))
    expect(catalog.exponentOf("USDC")).toEqual(Option.some(8))
    expect(catalog.isKnown("ETH2")).toBe(true)
    expect(catalog.isKnown("SHIB000000")).toBe(true)
    expect(catalog.exponentOf("USD")).toEqual(Option.some(2))
    expect(catalog.codes()).toContain("BTC")
    expect(catalog.codes().length).toBe(ISO_CURRENCY_EXPONENTS.size + 4)
    expect(defaultCurrencyCatalog.isKnown("BTC")).toBe(false)
  })

  it("refuses malformed, colliding and repeated codes", () => {
    for (const bad of ["btc", "BT", "1INCH", "TOOLONGCODE", "B-TC", " BTC", ""]) {
      const error = configError([bad])
      expect(error._tag).toBe("InvalidCurrencyConfig")
      expect(error.reason, bad).toBe("malformed")
      expect(error.code).toBe(bad)
    }
    expect(configError(["USD"]).reason).toBe("iso_collision")
    expect(configError(["XAU"]).reason).toBe("iso_collision")
    expect(configError(["BTC", "ETH", "BTC"]).reason).toBe("duplicate")
  })
})

describe("CurrencyCode schema", () => {
  const decode = Schema.decodeUnknownEither(CurrencyCode)

  it("accepts ISO and longer operator codes", () => {
    for (const code of ["USD", "JPY", "USDC", "ETH2", "ABCDEFGHIJ"]) {
      expect(Either.isRight(decode(code)), code).toBe(true)
    }
  })

  it("rejects other shapes", () => {
    for (const code of ["usd", "US", "1BTC", "ABCDEFGHIJK", "US D", "", 42]) {
      expect(Either.isLeft(decode(code)), String(code)).toBe(true)
    }
  })
})

describe("heldExponent", () => {
  it("is the catalog's exponent for a code it knows", () => {
    const catalog = catalogWith(["BTC"])
    expect(heldExponent(catalog, "USD")).toBe(2)
    expect(heldExponent(catalog, "JPY")).toBe(0)
    expect(heldExponent(catalog, "KWD")).toBe(3)
    expect(heldExponent(catalog, "BTC")).toBe(8)
  })

  it("is the full scale for a code the catalog no longer knows, so no held atom is lost", () => {
    expect(heldExponent(defaultCurrencyCatalog, "BTC")).toBe(8)
    expect(heldExponent(catalogWith([]), "USDC")).toBe(8)
  })
})
