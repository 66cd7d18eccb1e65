import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { Instant } from "../shared/instant.js"
import { applyCredit, type Fraction, prorateAmountChange, prorateCycleChange, roundToMinorUnit, settleNet } from "./proration.js"

const CENT = 1_000_000n // atoms in a minor unit of a 2-digit currency
const YEN = 100_000_000n // a 0-digit currency
const at = (micros: bigint) => Instant(micros)
const cents = (n: bigint) => Amount(n * CENT)

const add = (a: Fraction, b: Fraction): Fraction => ({
  numerator: a.numerator * b.denominator + b.numerator * a.denominator,
  denominator: a.denominator * b.denominator
})
/** |a - b| <= bound, all exact. */
const within = (a: Fraction, b: Fraction, bound: Fraction) => {
  const diff = add(a, { numerator: -b.numerator, denominator: b.denominator })
  const absolute = diff.numerator < 0n ? -diff.numerator : diff.numerator
  return absolute * bound.denominator <= bound.numerator * diff.denominator
}
const whole = (atoms: bigint): Fraction => ({ numerator: atoms, denominator: 1n })

describe("roundToMinorUnit", () => {
  it("rounds to the nearest minor unit, a tie toward the customer", () => {
    expect(roundToMinorUnit({ numerator: 3n * CENT, denominator: 2n }, CENT)).toBe(CENT) // 1.5 cents charged: 1
    expect(roundToMinorUnit({ numerator: -3n * CENT, denominator: 2n }, CENT)).toBe(-2n * CENT) // 1.5 cents credited: 2
    expect(roundToMinorUnit({ numerator: 5n * CENT + 1n, denominator: 2n }, CENT)).toBe(3n * CENT) // just above 2.5
    expect(roundToMinorUnit({ numerator: 4n * CENT, denominator: 3n }, CENT)).toBe(CENT)
    expect(roundToMinorUnit({ numerator: 0n, denominator: 7n }, CENT)).toBe(0n)
    expect(roundToMinorUnit({ numerator: 150n * CENT, denominator: 100n }, YEN)).toBe(0n)
  })

  it("is never more than half a minor unit away from the exact value", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.constantFrom(1n, CENT, YEN),
      (numerator, denominator, unit) => {
        const rounded = roundToMinorUnit({ numerator, denominator }, unit)
        expect(rounded % unit).toBe(0n)
        expect(within(whole(rounded), { numerator, denominator }, { numerator: unit, denominator: 2n })).toBe(true)
      }))
  })
})

describe("prorateAmountChange", () => {
  const period = { start: at(0n), end: at(30n * 86_400_000_000n) }

  it("an upgrade at half the period charges half the difference", () => {
    const half = at(15n * 86_400_000_000n)
    expect(prorateAmountChange({ oldAmount: cents(1000n), newAmount: cents(2000n), period, at: half, minorUnit: CENT }).net).toBe(cents(500n))
  })

  it("a downgrade at a third of the period credits two thirds of the difference, rounded to a cent", () => {
    const third = at(10n * 86_400_000_000n)
    // (999 - 1000) x 2/3 = -0.666 cents: rounds to a 1 cent credit.
    expect(prorateAmountChange({ oldAmount: cents(1000n), newAmount: cents(999n), period, at: third, minorUnit: CENT }).net).toBe(-CENT)
    // 10.00 -> 5.00 at a third: 3.333... credited, rounds to 3.33.
    expect(prorateAmountChange({ oldAmount: cents(1000n), newAmount: cents(500n), period, at: third, minorUnit: CENT }).net).toBe(-cents(333n))
  })

  it("a cycle change now credits the unused old part and charges a whole new period", () => {
    const half = at(15n * 86_400_000_000n)
    expect(prorateCycleChange({ oldAmount: cents(1000n), newAmount: cents(10000n), period, at: half, minorUnit: CENT }).net).toBe(cents(9500n))
  })
})

describe("credit", () => {
  it("is taken off an invoice up to its amount", () => {
    expect(applyCredit(cents(300n), cents(1000n))).toEqual({ billed: cents(700n), used: cents(300n), credit: 0n })
    expect(applyCredit(cents(3000n), cents(1000n))).toEqual({ billed: 0n, used: cents(1000n), credit: cents(2000n) })
  })

  it("pays a charge first, and grows by a credit", () => {
    expect(settleNet(cents(300n), cents(1000n))).toEqual({ billed: cents(700n), credit: 0n })
    expect(settleNet(cents(300n), Amount(-100n * CENT))).toEqual({ billed: 0n, credit: cents(400n) })
  })

  it("carries a charge below the minimum onto the next invoice", () => {
    expect(settleNet(cents(30n), cents(80n), cents(100n))).toEqual({ billed: 0n, credit: Amount(-50n * CENT) })
    expect(applyCredit(Amount(-50n * CENT), cents(1000n))).toEqual({ billed: cents(1050n), used: Amount(-50n * CENT), credit: 0n })
  })
})

/**
 * The property of the issue: over any sequence of changes at any times, what the customer is charged
 * plus the credit left equals, unit for unit, the full invoices plus the rounded nets (nothing created
 * or lost), is within half a minor unit per change of the exact per-segment price of the time used,
 * and every credit is eventually spent by later invoices.
 */
describe("proration over any sequence of changes", () => {
  type Step =
    | { readonly kind: "amount"; readonly offset: number; readonly price: bigint }
    | { readonly kind: "cycle"; readonly offset: number; readonly price: bigint; readonly length: bigint }
    | { readonly kind: "renew" }

  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ kind: fc.constant("amount" as const), offset: fc.double({ min: 0, max: 0.999, noNaN: true }), price: fc.bigInt({ min: 1n, max: 1_000_000n }) }),
    fc.record({
      kind: fc.constant("cycle" as const),
      offset: fc.double({ min: 0, max: 0.999, noNaN: true }),
      price: fc.bigInt({ min: 1n, max: 1_000_000n }),
      length: fc.bigInt({ min: 1n, max: 400n * 86_400_000_000n })
    }),
    fc.constant({ kind: "renew" as const })
  )

  it("never creates or loses a minor unit", () => {
    fc.assert(fc.property(
      fc.constantFrom(1n, CENT, YEN),
      fc.bigInt({ min: 1n, max: 1_000_000n }),
      fc.bigInt({ min: 1n, max: 400n * 86_400_000_000n }),
      fc.array(step, { maxLength: 40 }),
      fc.constantFrom(0n, 1n, 100n),
      (unit, firstPrice, firstLength, steps, minimumUnits) => {
        const minimum = Amount(minimumUnits * unit)
        let price = Amount(firstPrice * unit)
        let period = { start: at(1_000n), end: at(1_000n + firstLength) }
        let cursor = period.start // the changes of a period come in time order
        let credit = Amount(0n)
        let charged = 0n // what the customer was billed, minor-unit exact
        let invoicedFull = 0n // the full-price invoices, before credit
        let nets = 0n // the rounded nets of every change
        let changes = 0n
        // The exact price of the time used: each segment at its own price, over its period's length.
        let exact: Fraction = whole(0n)
        let segmentStart = period.start
        const closeSegment = (until: Instant) => {
          exact = add(exact, { numerator: price * (until - segmentStart), denominator: period.end - period.start })
          segmentStart = until
        }
        const invoice = (amount: Amount) => {
          const { billed, credit: left } = applyCredit(credit, amount)
          charged += billed
          credit = left
          expect(billed % unit).toBe(0n)
        }
        invoice(price)
        invoicedFull += price
        for (const next of steps) {
          if (next.kind === "renew") {
            closeSegment(period.end)
            period = { start: period.end, end: at(period.end + (period.end - period.start)) }
            cursor = period.start
            segmentStart = period.start
            invoice(price)
            invoicedFull += price
            continue
          }
          const span = period.end - cursor
          const when = at(cursor + BigInt(Math.floor(next.offset * Number(span))))
          cursor = when
          const newPrice = Amount(next.price * unit)
          const proration = next.kind === "amount"
            ? prorateAmountChange({ oldAmount: price, newAmount: newPrice, period, at: when, minorUnit: unit })
            : prorateCycleChange({ oldAmount: price, newAmount: newPrice, period, at: when, minorUnit: unit })
          expect(within(whole(proration.net), proration.exact, { numerator: unit, denominator: 2n })).toBe(true)
          closeSegment(when)
          if (next.kind === "cycle") period = { start: when, end: at(when + next.length) }
          price = newPrice
          const settled = settleNet(credit, proration.net, minimum)
          expect(settled.billed === 0n || settled.billed >= minimum).toBe(true)
          charged += settled.billed
          credit = settled.credit
          nets += proration.net
          changes++
          expect(credit % unit).toBe(0n)
        }
        closeSegment(period.end)
        // Nothing created or lost: every unit billed or credited is one of a full invoice or a net.
        expect(charged - credit).toBe(invoicedFull + nets)
        // And that is the exact price of the time used, up to the one rounding per change.
        expect(within(whole(charged - credit), exact, { numerator: changes * unit, denominator: 2n })).toBe(true)
        // Every credit is spent by later invoices (a carried charge by the next one), to the unit.
        let renewals = 0n
        let spent = 0n
        let billedLater = 0n
        const left = credit
        while (credit !== 0n) {
          const { billed, credit: after, used } = applyCredit(credit, price)
          spent += used
          billedLater += billed
          credit = after
          renewals++
        }
        expect(spent).toBe(left)
        expect(billedLater).toBe(renewals * price - left)
        expect(renewals).toBe(left <= 0n ? (left === 0n ? 0n : 1n) : (left + price - 1n) / price)
      }
    ), { numRuns: 500 })
  })
})
