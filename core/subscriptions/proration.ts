import { Amount } from "../money/amount.js"
import type { Instant } from "../shared/instant.js"

/**
 * Proration of a plan change, pure and exact (issue 36, item 4).
 *
 * The share of a period left at a change is the time fraction (end - at) / (end - start), counted
 * in microseconds; every amount is first an exact rational number of atoms (the money scale), and
 * only the net of one change is rounded, once, to a whole minor unit of the currency by ONE rule:
 * to the nearest minor unit, a tie going to the customer (a charge rounds down, a credit up). So a
 * change is never off by more than half a minor unit, and nothing else is ever rounded: credits are
 * kept and spent in whole minor units, so they are never created or lost on the way.
 */

/** An exact number of atoms: numerator / denominator, denominator > 0. */
export interface Fraction {
  readonly numerator: bigint
  readonly denominator: bigint
}

export interface PaidPeriod {
  readonly start: Instant
  readonly end: Instant
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q
}

const ceilDiv = (a: bigint, b: bigint): bigint => -floorDiv(-a, b)

/** The microseconds of the period left at `at` (clamped to the period), and its length. */
const unused = (period: PaidPeriod, at: Instant) => {
  const length = period.end - period.start
  if (length <= 0n) throw new RangeError("a period must end after it starts")
  const clamped = at < period.start ? period.start : at > period.end ? period.end : at
  return { left: period.end - clamped, length }
}

/**
 * Rounds an exact number of atoms to whole minor units (`minorUnit` atoms each): the nearest, a tie
 * toward the customer, i.e. ceil(x - 1/2) in minor units for charges (positive) and credits
 * (negative) alike.
 */
export const roundToMinorUnit = (exact: Fraction, minorUnit: bigint): Amount => {
  const { denominator, numerator } = exact
  return Amount(ceilDiv(2n * numerator - denominator * minorUnit, 2n * denominator * minorUnit) * minorUnit)
}

/** What one change costs (positive: a charge) or gives back (negative: a credit), exact and rounded. */
export interface Proration {
  readonly exact: Fraction
  readonly net: Amount
}

/**
 * An amount change inside a paid period, at `at`: the unused part at the old price is credited and
 * the same time at the new price charged, so the net is (new - old) x left / length.
 */
export const prorateAmountChange = (input: {
  readonly oldAmount: Amount
  readonly newAmount: Amount
  readonly period: PaidPeriod
  readonly at: Instant
  readonly minorUnit: bigint
}): Proration => {
  const { left, length } = unused(input.period, input.at)
  const exact = { numerator: (input.newAmount - input.oldAmount) * left, denominator: length }
  return { exact, net: roundToMinorUnit(exact, input.minorUnit) }
}

/**
 * A cycle change taking effect now: the unused part of the paid period at the old price is credited
 * and a whole new period (of the new cycle, from `at`) charged at the new price: new - old x left / length.
 */
export const prorateCycleChange = (input: {
  readonly oldAmount: Amount
  readonly newAmount: Amount
  readonly period: PaidPeriod
  readonly at: Instant
  readonly minorUnit: bigint
}): Proration => {
  const { left, length } = unused(input.period, input.at)
  const exact = { numerator: input.newAmount * length - input.oldAmount * left, denominator: length }
  return { exact, net: roundToMinorUnit(exact, input.minorUnit) }
}

/**
 * An invoice amount with the credit taken off: what is billed, what credit was used and what is
 * left. A negative credit is a charge too small to invoice on its own (settleNet), added here.
 */
export const applyCredit = (credit: Amount, amount: Amount) => {
  const used = credit < amount ? credit : amount
  return { billed: Amount(amount - used), used: Amount(used), credit: Amount(credit - used) }
}

/**
 * What a change's net does to the credit: a charge is paid from the credit first and the rest billed
 * now, unless it is below `minimumCharge` (the smallest checkout the currency takes): then it is
 * carried, as a negative credit, onto the next invoice. A credit is added to the credit.
 */
export const settleNet = (credit: Amount, net: Amount, minimumCharge: Amount = Amount(0n)) => {
  if (net <= 0n) return { billed: Amount(0n), credit: Amount(credit - net) }
  const { billed, credit: left } = applyCredit(credit, net)
  return billed > 0n && billed < minimumCharge ? { billed: Amount(0n), credit: Amount(left - billed) } : { billed, credit: left }
}
