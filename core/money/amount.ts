import * as Brand from "effect/Brand"

/**
 * An exact amount of money: a count of 10^-8 units of its currency, held as a bigint.
 *
 * One fixed scale for every currency keeps storage and arithmetic uniform (8 digits covers the
 * crypto codes operators configure); each currency's own minor unit is a validation rule on top
 * (see currencies.ts), never a different representation. Signed, so ledger deltas and wallet
 * adjustments use the same type; inputs that must be positive are checked where they are parsed.
 */
export type Amount = bigint & Brand.Brand<"Amount">

export const Amount = Brand.nominal<Amount>()

/** Fraction digits of the fixed scale. */
export const SCALE = 8

/** 10^SCALE: the number of atoms in one currency unit. */
export const ATOMS_PER_UNIT = 100_000_000n

/**
 * The largest single amount accepted as input: 9,999,999,999.99999999 units.
 * Ten integer digits at scale 8 stays below 2^63 with room for balances of several such amounts;
 * larger values are refused as out of range rather than risking a BIGINT overflow.
 */
export const MAX_AMOUNT = Amount(10n ** 18n - 1n)

/** The largest value a stored balance may reach: the signed 64-bit BIGINT column's limit. */
export const MAX_BALANCE = Amount(2n ** 63n - 1n)

export const ZERO = Amount(0n)

/** The largest minor-unit exponent a currency may have: finer units could not be held at SCALE. */
export const MAX_EXPONENT = SCALE

// Computed once: formatting a statement asks for it three times per amount, a million amounts in an export.
const ATOMS_PER_MINOR_UNIT: ReadonlyArray<bigint> = Array.from({ length: MAX_EXPONENT + 1 }, (_, exponent) => 10n ** BigInt(SCALE - exponent))

/**
 * Atoms in one minor unit of a currency with the given exponent (10^(SCALE - exponent)):
 * 1_000_000n for a 2-digit currency, ATOMS_PER_UNIT for a 0-digit one, 1n at SCALE.
 *
 * Exponents come from the currency catalog, so anything outside 0..SCALE is a programming error;
 * it throws rather than silently computing amounts at the wrong granularity.
 */
export const atomsPerMinorUnit = (exponent: number): bigint => {
  const atoms = ATOMS_PER_MINOR_UNIT[exponent]
  if (atoms === undefined || !Number.isInteger(exponent)) {
    throw new RangeError(`currency exponent must be an integer from 0 to ${MAX_EXPONENT}, got ${exponent}`)
  }
  return atoms
}
