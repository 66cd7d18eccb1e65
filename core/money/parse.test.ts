import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { MAX_AMOUNT } from "./amount.js"
import { type AmountErrorReason, type AmountInput, parseAmount, parseFeePercent, parseSignedAmount } from "./parse.js"

const json = (text: string): AmountInput => ({ kind: "json-number", text })
const str = (value: string): AmountInput => ({ kind: "string", value })

const USD = 2
const JPY = 0
const KWD = 3
const CRYPTO = 8

const ok = (result: Either.Either<bigint, { reason: AmountErrorReason }>): bigint => {
  if (Either.isLeft(result)) throw new Error(`expected success, got ${result.left.reason}`)
  return result.right
}

const reasonOf = (result: Either.Either<bigint, { reason: AmountErrorReason; message: string }>) => {
  if (Either.isRight(result)) throw new Error(`expected failure, got ${result.right}`)
  expect(result.left.message.length).toBeGreaterThan(0)
  return result.left.reason
}

describe("parseAmount: strings", () => {
  it("parses plain decimals per currency exponent", () => {
    expect(ok(parseAmount(str("12.50"), USD))).toBe(1_250_000_000n)
    expect(ok(parseAmount(str("12.5"), USD))).toBe(1_250_000_000n)
    expect(ok(parseAmount(str("0.01"), USD))).toBe(1_000_000n)
    expect(ok(parseAmount(str("1500"), JPY))).toBe(150_000_000_000n)
    expect(ok(parseAmount(str("1.0"), JPY))).toBe(100_000_000n)
    expect(ok(parseAmount(str("1.234"), KWD))).toBe(123_400_000n)
    expect(ok(parseAmount(str("0.00000001"), CRYPTO))).toBe(1n)
    expect(ok(parseAmount(str("9999999999.99999999"), CRYPTO))).toBe(MAX_AMOUNT)
    expect(ok(parseAmount(str("007.50"), USD))).toBe(750_000_000n)
    expect(ok(parseAmount(str("0"), USD))).toBe(0n)
  })

  it("rejects anything but a plain decimal", () => {
    for (const bad of ["", "-", "1.", ".5", "+1", " 1", "1 ", "1e2", "1,000", "1_000", "NaN", "Infinity", "-Infinity", "0x10", "١", "1.2.3", "--1", "1\n"]) {
      expect(reasonOf(parseAmount(str(bad), USD)), bad).toBe("format")
    }
  })

  it("reports each error reason", () => {
    expect(reasonOf(parseAmount(str("12.501"), USD))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(str("1.5"), JPY))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(str("1.2345"), KWD))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(str("0.000000001"), CRYPTO))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(str("-1"), USD))).toBe("negative")
    expect(reasonOf(parseAmount(str("0.00"), USD, { allowZero: false }))).toBe("zero")
    expect(reasonOf(parseAmount(str("-0"), USD, { allowZero: false }))).toBe("zero")
    expect(reasonOf(parseAmount(str("10000000000"), USD))).toBe("out_of_range")
    expect(reasonOf(parseAmount(str("-10000000000"), USD, { allowNegative: true }))).toBe("out_of_range")
    expect(reasonOf(parseAmount(str("10000000000.00000000"), CRYPTO))).toBe("out_of_range")
  })

  it("keeps negative zero as plain zero and allows negatives on request", () => {
    expect(ok(parseAmount(str("-0.00"), USD))).toBe(0n)
    expect(ok(parseAmount(str("-3.20"), USD, { allowNegative: true }))).toBe(-320_000_000n)
    expect(ok(parseSignedAmount(str("-9999999999.99999999"), CRYPTO))).toBe(-MAX_AMOUNT)
    expect(ok(parseSignedAmount(json("0"), USD))).toBe(0n)
  })

  it("rejects over-long input as format before looking at digits", () => {
    expect(reasonOf(parseAmount(str("1." + "0".repeat(63)), USD))).toBe("format")
    expect(ok(parseAmount(str("1." + "0".repeat(62)), USD))).toBe(100_000_000n)
    expect(reasonOf(parseAmount(str("9".repeat(100_000)), USD))).toBe("format")
  })

  it("throws on an exponent no currency can have", () => {
    expect(() => parseAmount(str("1"), 9)).toThrow(RangeError)
    expect(() => parseAmount(str("1"), -1)).toThrow(RangeError)
    expect(() => parseAmount(str("1"), 1.5)).toThrow(RangeError)
  })
})

describe("parseAmount: JSON numbers", () => {
  it("resolves exponent notation exactly", () => {
    expect(ok(parseAmount(json("1e2"), USD))).toBe(10_000_000_000n)
    expect(ok(parseAmount(json("1.50E+1"), USD))).toBe(1_500_000_000n)
    expect(ok(parseAmount(json("1E-2"), USD))).toBe(1_000_000n)
    expect(ok(parseAmount(json("-0.5"), USD, { allowNegative: true }))).toBe(-50_000_000n)
    expect(ok(parseAmount(json("12345e-3"), KWD))).toBe(1_234_500_000n)
    expect(ok(parseAmount(json("1.5e0"), USD))).toBe(150_000_000n)
    expect(ok(parseAmount(json("0.15e2"), JPY))).toBe(1_500_000_000n)
    expect(ok(parseAmount(json("1000e-3"), JPY))).toBe(100_000_000n)
    expect(ok(parseAmount(json("1e-8"), CRYPTO))).toBe(1n)
    expect(ok(parseAmount(json("9.99999999999999999e9"), CRYPTO))).toBe(MAX_AMOUNT)
    expect(ok(parseAmount(json("0e999999999"), USD))).toBe(0n)
    expect(ok(parseAmount(json("0.000e-999999999"), USD))).toBe(0n)
  })

  it("reports each error reason", () => {
    expect(reasonOf(parseAmount(json("1E-3"), USD))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(json("15e-1"), JPY))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(json("1e-9"), CRYPTO))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(json("-0.5"), USD))).toBe("negative")
    expect(reasonOf(parseAmount(json("0e5"), USD, { allowZero: false }))).toBe("zero")
    expect(reasonOf(parseAmount(json("1e10"), USD))).toBe("out_of_range")
    expect(reasonOf(parseAmount(json("1e999999999"), USD))).toBe("out_of_range")
    expect(reasonOf(parseAmount(json("1e-999999999"), USD))).toBe("too_many_decimals")
    expect(reasonOf(parseAmount(json("1e" + "9".repeat(62)), USD))).toBe("out_of_range")
    expect(reasonOf(parseAmount(json("1e-" + "9".repeat(61)), CRYPTO))).toBe("too_many_decimals")
  })

  it("follows JSON number grammar strictly", () => {
    for (const bad of ["", "01", "-01", "+1", ".5", "1.", "1e", "1e+", "1.e2", "NaN", "Infinity", "-Infinity", "0x1", " 1", "1 ", "\"1\"", "1f", "--1", "-", "1\n", "１"]) {
      expect(reasonOf(parseAmount(json(bad), USD)), bad).toBe("format")
    }
  })

  it("answers huge exponents quickly", () => {
    const started = performance.now()
    for (let i = 0; i < 1_000; i++) {
      parseAmount(json("1e" + "9".repeat(62)), USD)
      parseAmount(json("1e-" + "9".repeat(61)), USD)
    }
    expect(performance.now() - started).toBeLessThan(1_000)
  })
})

describe("parseFeePercent", () => {
  it("stores percents at scale 8", () => {
    expect(ok(parseFeePercent(str("2.5")))).toBe(250_000_000n)
    expect(ok(parseFeePercent(json("0")))).toBe(0n)
    expect(ok(parseFeePercent(json("100")))).toBe(10_000_000_000n)
    expect(ok(parseFeePercent(json("1e2")))).toBe(10_000_000_000n)
    expect(ok(parseFeePercent(str("0.00000001")))).toBe(1n)
  })

  it("refuses percents outside 0..100 or finer than 8 digits", () => {
    expect(reasonOf(parseFeePercent(str("100.00000001")))).toBe("out_of_range")
    expect(reasonOf(parseFeePercent(json("1e20")))).toBe("out_of_range")
    expect(reasonOf(parseFeePercent(str("-1")))).toBe("negative")
    expect(reasonOf(parseFeePercent(str("0.000000001")))).toBe("too_many_decimals")
    expect(reasonOf(parseFeePercent(str("abc")))).toBe("format")
  })
})

describe("parseAmount: exponent notation properties", () => {
  const atoms = fc.bigInt({ min: 1n, max: MAX_AMOUNT })

  it("n e-8 is exactly n atoms, however the coefficient is written", () => {
    fc.assert(
      fc.property(atoms, fc.nat({ max: 10 }), fc.boolean(), fc.boolean(), (n, zeros, upper, plus) => {
        const digits = n.toString() + "0".repeat(zeros)
        const e = upper ? "E" : "e"
        // Integer coefficient: digits × 10^-(8 + zeros).
        expect(ok(parseAmount(json(`${digits}${e}-${8 + zeros}`), CRYPTO))).toBe(n)
        // Scientific form d.ddd × 10^k with k = digits.length - 1 - 8 - zeros.
        const k = digits.length - 1 - 8 - zeros
        const mantissa = digits.length === 1 ? digits : `${digits[0]}.${digits.slice(1)}`
        const exponent = k < 0 ? `-${-k}` : `${plus ? "+" : ""}${k}`
        expect(ok(parseAmount(json(`-${mantissa}${e}${exponent}`), CRYPTO, { allowNegative: true }))).toBe(-n)
      })
    )
  })
})
