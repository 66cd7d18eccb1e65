import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount, MAX_AMOUNT, atomsPerMinorUnit } from "./amount.js"
import { toCurrencyString, toExactCurrencyString, toFixed8String, toJsonNumberText } from "./format.js"
import { type AmountInput, parseAmount, parseSignedAmount } from "./parse.js"

const json = (text: string): AmountInput => ({ kind: "json-number", text })
const str = (value: string): AmountInput => ({ kind: "string", value })
const a = (atoms: bigint) => Amount(atoms)

const ok = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected success, got ${String(result.left)}`)
  return result.right
}

const anyAmount = fc.bigInt({ min: -MAX_AMOUNT, max: MAX_AMOUNT }).map(Amount)
const exponent = fc.integer({ min: 0, max: 8 })
/** An exponent with an amount that is a whole number of that currency's minor units. */
const fittingAmount = exponent.chain((e) => {
  const unit = atomsPerMinorUnit(e)
  const units = MAX_AMOUNT / unit
  return fc.tuple(fc.constant(e), fc.bigInt({ min: -units, max: units }).map((n) => Amount(n * unit)))
})

describe("toJsonNumberText", () => {
  it("writes canonical plain decimals", () => {
    expect(toJsonNumberText(a(1_250_000_000n))).toBe("12.5")
    expect(toJsonNumberText(a(10_000_000_000n))).toBe("100")
    expect(toJsonNumberText(a(1n))).toBe("0.00000001")
    expect(toJsonNumberText(a(-320_000_000n))).toBe("-3.2")
    expect(toJsonNumberText(a(0n))).toBe("0")
    expect(toJsonNumberText(a(-1n))).toBe("-0.00000001")
    expect(toJsonNumberText(MAX_AMOUNT)).toBe("9999999999.99999999")
    expect(toJsonNumberText(a(2n ** 63n - 1n))).toBe("92233720368.54775807")
  })

  it("round-trips through parsing as a JSON number and as a string", () => {
    fc.assert(
      fc.property(anyAmount, (x) => {
        const text = toJsonNumberText(x)
        expect(text).toMatch(/^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/)
        expect(ok(parseSignedAmount(json(text), 8))).toBe(x)
        expect(ok(parseSignedAmount(str(text), 8))).toBe(x)
      })
    )
  })

  it("round-trips at every currency exponent for amounts that fit it", () => {
    fc.assert(
      fc.property(fittingAmount, ([e, x]) => {
        expect(ok(parseAmount(json(toJsonNumberText(x)), e, { allowNegative: true }))).toBe(x)
      })
    )
  })

  // Values with at most 15 significant digits are held by a double to the digit, so the JSON
  // reader on the other end sees the same number whichever text was written.
  const fifteenDigits = fc
    .tuple(
      fc.bigInt({ min: -(10n ** 15n - 1n), max: 10n ** 15n - 1n }),
      fc.integer({ min: 0, max: 3 })
    )
    .map(([significand, shift]) => Amount(significand * 10n ** BigInt(shift)))

  it("reads back as the same double JSON.stringify would have written", () => {
    fc.assert(
      fc.property(fifteenDigits, (x) => {
        const text = toJsonNumberText(x)
        expect(JSON.parse(text)).toBe(JSON.parse(JSON.stringify(Number(text))))
      })
    )
  })

  it("is the very text JSON.stringify writes from 1e-6 upward", () => {
    fc.assert(
      fc.property(fifteenDigits, (x) => {
        fc.pre(x === 0n || x >= 100n || x <= -100n)
        const text = toJsonNumberText(x)
        expect(JSON.stringify(Number(text))).toBe(text)
      })
    )
  })
})

describe("toFixed8String", () => {
  it("always writes eight fraction digits", () => {
    expect(toFixed8String(a(1_250_000_000n))).toBe("12.50000000")
    expect(toFixed8String(a(0n))).toBe("0.00000000")
    expect(toFixed8String(a(-1n))).toBe("-0.00000001")
    expect(toFixed8String(MAX_AMOUNT)).toBe("9999999999.99999999")
  })

  it("round-trips through string parsing", () => {
    fc.assert(
      fc.property(anyAmount, (x) => {
        const text = toFixed8String(x)
        expect(text).toMatch(/^-?[0-9]+\.[0-9]{8}$/)
        expect(ok(parseSignedAmount(str(text), 8))).toBe(x)
      })
    )
  })
})

describe("toCurrencyString", () => {
  it("writes exactly the currency's fraction digits", () => {
    expect(toCurrencyString(a(1_250_000_000n), 2)).toBe("12.50")
    expect(toCurrencyString(a(150_000_000_000n), 0)).toBe("1500")
    expect(toCurrencyString(a(123_400_000n), 3)).toBe("1.234")
    expect(toCurrencyString(a(1n), 8)).toBe("0.00000001")
    expect(toCurrencyString(a(-320_000_000n), 2)).toBe("-3.20")
    expect(toCurrencyString(a(0n), 4)).toBe("0.0000")
  })

  it("rounds amounts finer than the currency half away from zero", () => {
    expect(toCurrencyString(a(500_000n), 2)).toBe("0.01")
    expect(toCurrencyString(a(499_999n), 2)).toBe("0.00")
    expect(toCurrencyString(a(-500_000n), 2)).toBe("-0.01")
    expect(toCurrencyString(a(-400_000n), 2)).toBe("0.00")
    expect(toCurrencyString(a(50_000_000n), 0)).toBe("1")
    expect(toCurrencyString(a(250_000_000n), 0)).toBe("3")
    expect(toCurrencyString(a(99_999_999_950_000n), 3)).toBe("1000000.000")
  })

  it("round-trips through string parsing at the currency's exponent", () => {
    fc.assert(
      fc.property(fittingAmount, ([e, x]) => {
        const text = toCurrencyString(x, e)
        expect(text).toMatch(e === 0 ? /^-?[0-9]+$/ : new RegExp(`^-?[0-9]+\\.[0-9]{${e}}$`))
        expect(ok(parseAmount(str(text), e, { allowNegative: true }))).toBe(x)
      })
    )
  })
})

describe("toExactCurrencyString", () => {
  it("writes the currency's digits, and more rather than rounding an amount finer than its minor unit", () => {
    expect(toExactCurrencyString(a(1_250_000_000n), 2)).toBe("12.50")
    expect(toExactCurrencyString(a(-1_250_000_000n), 2)).toBe("-12.50")
    expect(toExactCurrencyString(a(150_000_000_000n), 0)).toBe("1500")
    expect(toExactCurrencyString(a(1_250_500_000n), 2)).toBe("12.505")
    expect(toExactCurrencyString(a(1n), 3)).toBe("0.00000001")
    expect(toExactCurrencyString(a(0n), 3)).toBe("0.000")
  })

  it("reads back as the very amount at scale, whatever the currency", () => {
    fc.assert(fc.property(anyAmount, exponent, (amount, e) => {
      expect(ok(parseSignedAmount(str(toExactCurrencyString(amount, e)), 8))).toBe(amount)
    }))
  })
})
