import { Amount, ATOMS_PER_UNIT, atomsPerMinorUnit } from "./amount.js"
import { fitsExponent, min } from "./arithmetic.js"
import { MAX_FEE_PERCENT } from "./parse.js"

export interface FeeTerms {
  /** The payment amount; must be >= 0 and a whole number of the currency's minor units. */
  readonly amount: Amount
  /** Percent at the fixed scale (2.5% = 250_000_000n); must be within 0..100%. */
  readonly percent: Amount
  /** Flat fee in the payment currency; must be >= 0 (it may be finer than the minor unit). */
  readonly fixed: Amount
  /** The payment currency's minor-unit exponent, 0..8. */
  readonly exponent: number
}

export interface PricedFee {
  readonly fee: Amount
  readonly net: Amount
}

/** Percent atoms per whole: 100% is 100 × 10^8, so amount × percent / this is the percent part in atoms. */
const PERCENT_DENOMINATOR = 100n * ATOMS_PER_UNIT

const checkTerms = ({ amount, percent, fixed, exponent }: FeeTerms): void => {
  // Violations are caller bugs (inputs are validated at parse time); pricing them would move money wrongly.
  if (amount < 0n) throw new RangeError(`fee amount must not be negative, got ${amount}`)
  if (percent < 0n || percent > MAX_FEE_PERCENT) throw new RangeError(`fee percent out of 0..100%, got ${percent}`)
  if (fixed < 0n) throw new RangeError(`fixed fee must not be negative, got ${fixed}`)
  if (!fitsExponent(amount, exponent)) {
    throw new RangeError(`fee amount ${amount} is finer than the currency's minor unit (exponent ${exponent})`)
  }
}

/**
 * fee = amount × percent / 100 + fixed, held as one exact fraction and rounded once, half-up, to
 * the currency's minor unit. Rounding the two parts separately could be a unit off from the true
 * total; rounding once keeps the fee the nearest representable value to the contract's terms.
 * The fee is then capped at the amount, so a fixed fee larger than a small payment takes all of it
 * and the merchant's net is zero, never negative. net = amount - fee, so fee + net = amount exactly.
 */
export const priceFee = (terms: FeeTerms): PricedFee => {
  checkTerms(terms)
  const { amount, percent, fixed, exponent } = terms
  const unit = atomsPerMinorUnit(exponent)
  // Everything over the common denominator PERCENT_DENOMINATOR × unit, so the division below yields minor units.
  const numerator = amount * percent + fixed * PERCENT_DENOMINATOR
  const denominator = PERCENT_DENOMINATOR * unit
  const whole = numerator / denominator
  const units = 2n * (numerator % denominator) >= denominator ? whole + 1n : whole
  const fee = min(Amount(units * unit), amount)
  return { fee, net: Amount(amount - fee) }
}
