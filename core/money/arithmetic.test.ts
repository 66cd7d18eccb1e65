import { Either, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount, MAX_AMOUNT, MAX_BALANCE, atomsPerMinorUnit } from "./amount.js"
import {
  abs,
  add,
  addWithinLimit,
  checkedAdd,
  checkedSubtract,
  checkedSum,
  compare,
  fitsExponent,
  isNegative,
  isPositive,
  isZero,
  max,
  min,
  negate,
  roundHalfUpToExponent,
  subtract,
  sum
} from "./arithmetic.js"
import { toJsonNumberText } from "./format.js"
import { type AmountInput, parseAmount, parseSignedAmount } from "./parse.js"

const a = (atoms: bigint) => Amount(atoms)
const str = (value: string): AmountInput => ({ kind: "string", value })
const json = (text: string): AmountInput => ({ kind: "json-number", text })
const ok = <A, E>(result: Either.Either<A, E>): A => {
  if (Either.isLeft(result)) throw new Error(`expected success, got ${String(result.left)}`)
  return result.right
}

const anyAmount = fc.bigInt({ min: -MAX_AMOUNT, max: MAX_AMOUNT }).map(Amount)

/**
 * Half-away-from-zero rounding worked out from the first discarded decimal digit instead of the
 * remainder: |x| rounds up exactly when that digit is 5 or more.
 */
const referenceRound = (x: bigint, exponent: number): bigint => {
  const unit = atomsPerMinorUnit(exponent)
  const magnitude = x < 0n ? -x : x
  const tenths = (magnitude * 10n) / unit
  const rounded = (tenths / 10n + (tenths % 10n >= 5n ? 1n : 0n)) * unit
  return x < 0n ? -rounded : rounded
}

describe("basic operations", () => {
  it("computes exact results", () => {
    expect(add(a(10n), a(-3n))).toBe(7n)
    expect(subtract(a(10n), a(13n))).toBe(-3n)
    expect(negate(a(5n))).toBe(-5n)
    expect(abs(a(-5n))).toBe(5n)
    expect(compare(a(1n), a(2n))).toBe(-1)
    expect(compare(a(2n), a(2n))).toBe(0)
    expect(compare(a(3n), a(2n))).toBe(1)
    expect(min(a(1n), a(-2n))).toBe(-2n)
    expect(max(a(1n), a(-2n))).toBe(1n)
    expect(isNegative(a(-1n))).toBe(true)
    expect(isNegative(a(0n))).toBe(false)
    expect(isPositive(a(1n))).toBe(true)
    expect(isZero(a(0n))).toBe(true)
    expect(isZero(a(1n))).toBe(false)
    expect(sum([])).toBe(0n)
    expect(sum([a(1n), a(2n), a(-4n)])).toBe(-1n)
  })

  it("fitsExponent checks whole minor units", () => {
    expect(fitsExponent(a(1_250_000_000n), 2)).toBe(true)
    expect(fitsExponent(a(1_250_100_000n), 2)).toBe(false)
    expect(fitsExponent(a(150_000_000n), 0)).toBe(false)
    expect(fitsExponent(a(200_000_000n), 0)).toBe(true)
    expect(fitsExponent(a(-100_000n), 3)).toBe(true)
    expect(fitsExponent(a(1n), 8)).toBe(true)
  })
})

describe("roundHalfUpToExponent", () => {
  it("rounds ties away from zero", () => {
    expect(roundHalfUpToExponent(a(500_000n), 2)).toBe(1_000_000n)
    expect(roundHalfUpToExponent(a(499_999n), 2)).toBe(0n)
    expect(roundHalfUpToExponent(a(-500_000n), 2)).toBe(-1_000_000n)
    expect(roundHalfUpToExponent(a(-499_999n), 2)).toBe(0n)
    expect(roundHalfUpToExponent(a(250_000_000n), 0)).toBe(300_000_000n)
    expect(roundHalfUpToExponent(a(123_450_000n), 3)).toBe(123_500_000n)
    expect(roundHalfUpToExponent(a(123_456_789n), 8)).toBe(123_456_789n)
  })

  it("matches a digit-based reference, lands on the unit and moves less than half a unit", () => {
    fc.assert(
      fc.property(anyAmount, fc.integer({ min: 0, max: 8 }), (x, e) => {
        const rounded = roundHalfUpToExponent(x, e)
        const unit = atomsPerMinorUnit(e)
        expect(rounded).toBe(referenceRound(x, e))
        expect(rounded % unit).toBe(0n)
        const error = rounded - x
        expect(2n * (error < 0n ? -error : error) <= unit).toBe(true)
        expect(roundHalfUpToExponent(negate(x), e)).toBe(-rounded)
      })
    )
  })
})

describe("checked arithmetic", () => {
  it("refuses results beyond the BIGINT range", () => {
    expect(ok(checkedAdd(a(MAX_BALANCE - 1n), a(1n)))).toBe(MAX_BALANCE)
    const over = checkedAdd(MAX_BALANCE, a(1n))
    expect(Either.isLeft(over) && over.left._tag).toBe("AmountOverflow")
    expect(Either.isLeft(checkedSubtract(negate(MAX_BALANCE), a(1n)))).toBe(true)
    expect(ok(checkedSubtract(negate(MAX_BALANCE), a(-1n)))).toBe(-(MAX_BALANCE - 1n))
    expect(Either.isLeft(checkedAdd(a(60n), a(50n), a(100n)))).toBe(true)
    expect(ok(checkedAdd(a(60n), a(40n), a(100n)))).toBe(100n)
    expect(addWithinLimit(MAX_BALANCE, a(1n))).toEqual(Option.none())
    expect(addWithinLimit(a(1n), a(1n))).toEqual(Option.some(2n))
  })

  it("checkedSum stops at the first overflowing step", () => {
    expect(Either.isLeft(checkedSum([a(90n), a(20n), a(-20n)], a(100n)))).toBe(true)
    expect(ok(checkedSum([a(90n), a(-20n), a(20n)], a(100n)))).toBe(90n)
    const tenThousandMaxAmounts = Array.from({ length: 10_000 }, () => MAX_AMOUNT)
    expect(Either.isLeft(checkedSum(tenThousandMaxAmounts))).toBe(true)
  })

  it("agrees with unchecked add whenever the result is in range", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -MAX_BALANCE, max: MAX_BALANCE }), fc.bigInt({ min: -MAX_BALANCE, max: MAX_BALANCE }), (x, y) => {
        const result = checkedAdd(a(x), a(y))
        const exact = x + y
        if (exact > MAX_BALANCE || exact < -MAX_BALANCE) expect(Either.isLeft(result)).toBe(true)
        else expect(ok(result)).toBe(exact)
      })
    )
  })
})

describe("sums of parsed amounts do not drift", () => {
  it("adds 0.1 ten times to exactly 1", () => {
    const tenth = ok(parseAmount(json("0.1"), 2))
    expect(toJsonNumberText(sum(Array.from({ length: 10 }, () => tenth)))).toBe("1")
    const parts = ["0.1", "0.2"].map((text) => ok(parseAmount(str(text), 2)))
    expect(sum(parts)).toBe(ok(parseAmount(str("0.3"), 2)))
  })

  // Each amount is generated as cents and written as text by hand; the reference total is the
  // sum of the cents, written the same way, so parsing and summing must land on it exactly.
  const centsText = (cents: bigint): string => {
    const magnitude = cents < 0n ? -cents : cents
    const text = `${magnitude / 100n}.${(magnitude % 100n).toString().padStart(2, "0")}`
    return cents < 0n ? `-${text}` : text
  }

  it("equals the parsed text of the exact total", () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: -(10n ** 9n), max: 10n ** 9n }), { maxLength: 200 }), (cents) => {
        const parsed = cents.map((c) => ok(parseSignedAmount(str(centsText(c)), 2)))
        const total = cents.reduce((acc, c) => acc + c, 0n)
        expect(sum(parsed)).toBe(ok(parseSignedAmount(str(centsText(total)), 2)))
        expect(sum(parsed)).toBe(ok(parseSignedAmount(json(centsText(total)), 2)))
        expect(sum(parsed)).toBe(total * 1_000_000n)
      })
    )
  })
})
