import { Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount, MAX_AMOUNT, atomsPerMinorUnit } from "./amount.js"
import { priceFee } from "./fees.js"
import { type AmountInput, MAX_FEE_PERCENT, parseAmount, parseFeePercent } from "./parse.js"

const str = (value: string): AmountInput => ({ kind: "string", value })
const ok = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected success, got ${String(result.left)}`)
  return result.right
}
const money = (text: string, exponent: number) => ok(parseAmount(str(text), exponent))
const percent = (text: string) => ok(parseFeePercent(str(text)))

const price = (amount: string, pct: string, fixed: string, exponent: number) => {
  const { fee, net } = priceFee({
    amount: money(amount, exponent),
    percent: percent(pct),
    fixed: ok(parseAmount(str(fixed), 8)),
    exponent
  })
  return { fee: fee.toString(), net: net.toString() }
}

describe("priceFee examples", () => {
  it("prices percent plus fixed and rounds once to the minor unit", () => {
    // 2.9% of 10.00 + 0.30 = 0.59 exactly.
    expect(price("10.00", "2.9", "0.30", 2)).toEqual({ fee: "59000000", net: "941000000" })
    // 2.5% of 0.10 = 0.0025 -> 0.00; plus 0 fixed.
    expect(price("0.10", "2.5", "0", 2)).toEqual({ fee: "0", net: "10000000" })
    // 2.5% of 0.20 = 0.005: the tie rounds up to 0.01.
    expect(price("0.20", "2.5", "0", 2)).toEqual({ fee: "1000000", net: "19000000" })
    // 1.5% of 0.10 = 0.0015, plus fixed 0.0035 = exactly 0.005 -> 0.01. Rounding the parts
    // separately (0.00 + 0.00) would have lost the cent.
    expect(price("0.10", "1.5", "0.0035", 2)).toEqual({ fee: "1000000", net: "9000000" })
  })

  it("handles every currency class", () => {
    // JPY: 3.6% of 1234 = 44.424 -> 44.
    expect(price("1234", "3.6", "0", 0)).toEqual({ fee: "4400000000", net: "119000000000" })
    // KWD: 1% of 1.005 = 0.01005 + 0.1 = 0.11005 -> 0.110.
    expect(price("1.005", "1", "0.1", 3)).toEqual({ fee: "11000000", net: "89500000" })
    // Crypto: 0.5% of 0.00000101 = 0.000000005 (half an atom) -> 0.00000001.
    expect(price("0.00000101", "0.5", "0", 8)).toEqual({ fee: "1", net: "100" })
  })

  it("clamps the fee to the amount", () => {
    expect(price("0.20", "0", "0.30", 2)).toEqual({ fee: "20000000", net: "0" })
    expect(price("5", "100", "1", 2)).toEqual({ fee: "500000000", net: "0" })
    expect(price("0", "2.9", "0.30", 2)).toEqual({ fee: "0", net: "0" })
    expect(price("5", "100", "0", 2)).toEqual({ fee: "500000000", net: "0" })
    expect(price("5", "0", "0", 2)).toEqual({ fee: "0", net: "500000000" })
  })

  it("refuses terms outside its preconditions", () => {
    const base = { amount: Amount(100_000_000n), percent: Amount(0n), fixed: Amount(0n), exponent: 2 }
    expect(() => priceFee({ ...base, amount: Amount(-1_000_000n) })).toThrow(RangeError)
    expect(() => priceFee({ ...base, percent: Amount(MAX_FEE_PERCENT + 1n) })).toThrow(RangeError)
    expect(() => priceFee({ ...base, percent: Amount(-1n) })).toThrow(RangeError)
    expect(() => priceFee({ ...base, fixed: Amount(-1n) })).toThrow(RangeError)
    expect(() => priceFee({ ...base, amount: Amount(100_000_001n) })).toThrow(RangeError)
    expect(() => priceFee({ ...base, exponent: 9 })).toThrow(RangeError)
  })
})

/**
 * The unclamped fee in minor units, rounded half-up from the first discarded decimal digit of
 * the exact quotient, a different route to the same rounding rule than the implementation's
 * remainder comparison.
 */
const referenceFeeUnits = (amount: bigint, pct: bigint, fixed: bigint, exponent: number): bigint => {
  const unit = atomsPerMinorUnit(exponent)
  const numerator = amount * pct + fixed * 10n ** 10n
  const tenths = (numerator * 10n) / (10n ** 10n * unit)
  return tenths / 10n + (tenths % 10n >= 5n ? 1n : 0n)
}

const terms = fc.integer({ min: 0, max: 8 }).chain((exponent) => {
  const unit = atomsPerMinorUnit(exponent)
  return fc.record({
    exponent: fc.constant(exponent),
    amount: fc.bigInt({ min: 0n, max: MAX_AMOUNT / unit }).map((n) => Amount(n * unit)),
    percent: fc.oneof(
      fc.bigInt({ min: 0n, max: MAX_FEE_PERCENT }),
      fc.constantFrom(0n, 250_000_000n, 290_000_000n, MAX_FEE_PERCENT)
    ).map(Amount),
    fixed: fc.oneof(
      fc.bigInt({ min: 0n, max: 100n * 100_000_000n }),
      fc.bigInt({ min: 0n, max: MAX_AMOUNT })
    ).map(Amount)
  })
})

describe("priceFee properties", () => {
  it("fee + net = amount, 0 <= fee <= amount, fee is whole minor units", () => {
    fc.assert(
      fc.property(terms, (t) => {
        const { fee, net } = priceFee(t)
        const unit = atomsPerMinorUnit(t.exponent)
        expect(fee + net).toBe(t.amount)
        expect(fee >= 0n && fee <= t.amount).toBe(true)
        expect(net >= 0n).toBe(true)
        expect(fee % unit).toBe(0n)
        expect(net % unit).toBe(0n)
      })
    )
  })

  it("equals the reference half-up rounding, clamped", () => {
    fc.assert(
      fc.property(terms, (t) => {
        const expected = referenceFeeUnits(t.amount, t.percent, t.fixed, t.exponent) * atomsPerMinorUnit(t.exponent)
        expect(priceFee(t).fee).toBe(expected < t.amount ? expected : t.amount)
      })
    )
  })

  it("rounds exact halves up", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 7 }), fc.bigInt({ min: 0n, max: 10n ** 6n }), (exponent, units) => {
        const unit = atomsPerMinorUnit(exponent)
        // A fixed fee of units + one half unit, nothing else: must round to units + 1.
        const { fee } = priceFee({
          amount: Amount(10n ** 9n * unit),
          percent: Amount(0n),
          fixed: Amount(units * unit + unit / 2n),
          exponent
        })
        expect(fee).toBe((units + 1n) * unit)
      })
    )
  })

  it("never charges more as the percent falls", () => {
    fc.assert(
      fc.property(terms, fc.bigInt({ min: 0n, max: MAX_FEE_PERCENT }), (t, other) => {
        const lower = Amount(other < t.percent ? other : t.percent)
        expect(priceFee({ ...t, percent: lower }).fee <= priceFee(t).fee).toBe(true)
      })
    )
  })
})
