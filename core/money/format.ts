import { type Amount, ATOMS_PER_UNIT, SCALE, atomsPerMinorUnit } from "./amount.js"
import { roundHalfUpToExponent } from "./arithmetic.js"

/** Sign, whole units and the 8-digit zero-padded fraction, all from bigint division. */
const split = (amount: Amount): { sign: string; units: string; fraction: string } => {
  const magnitude = amount < 0n ? -amount : amount
  return {
    sign: amount < 0n ? "-" : "",
    units: (magnitude / ATOMS_PER_UNIT).toString(),
    fraction: (magnitude % ATOMS_PER_UNIT).toString().padStart(SCALE, "0")
  }
}

/**
 * The canonical literal to write raw into a JSON body as a number: plain decimal (never exponent
 * notation, which some clients parse badly), no trailing fraction zeros, "-" only for negatives.
 * For values a double can hold exactly to the digit it is the text JSON.stringify would produce,
 * except below 1e-6, where JavaScript switches to exponent notation and this stays decimal.
 */
export const toJsonNumberText = (amount: Amount): string => {
  const { sign, units, fraction } = split(amount)
  const significantFraction = fraction.replace(/0+$/, "")
  return significantFraction === "" ? `${sign}${units}` : `${sign}${units}.${significantFraction}`
}

/** Always 8 fraction digits ("12.50000000"): the fixed-width form subscriptions store and compare. */
export const toFixed8String = (amount: Amount): string => {
  const { sign, units, fraction } = split(amount)
  return `${sign}${units}.${fraction}`
}

/**
 * Exactly `exponent` fraction digits, for display ("12.50" in USD, "1500" in JPY). Callers are
 * expected to pass amounts that already fit the currency; anything finer is rounded half away
 * from zero (see roundHalfUpToExponent) rather than truncated, so a display never understates.
 */
export const toCurrencyString = (amount: Amount, exponent: number): string => {
  atomsPerMinorUnit(exponent)
  const { sign, units, fraction } = split(roundHalfUpToExponent(amount, exponent))
  // A tiny negative that rounds to zero prints "0.00", not "-0.00": bigint has no negative zero.
  return exponent === 0 ? `${sign}${units}` : `${sign}${units}.${fraction.slice(0, exponent)}`
}

/**
 * The currency's digits ("12.50" in USD), or more when the amount is finer than its minor unit,
 * never rounded: for statements and exports, which must add up to the atom against the ledger.
 */
export const toExactCurrencyString = (amount: Amount, exponent: number): string =>
  amount % atomsPerMinorUnit(exponent) === 0n ? toCurrencyString(amount, exponent) : toJsonNumberText(amount)
