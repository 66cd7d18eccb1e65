import { Amount, ATOMS_PER_UNIT, atomsPerMinorUnit } from "../money/amount.js"

const PERCENT_DENOMINATOR = 100n * ATOMS_PER_UNIT

/**
 * The part of a payment's net a rolling reserve holds: net × percent / 100, rounded once to the
 * currency's minor unit, half up (a tie is held: the platform's side, as the fee's rounding is), and
 * never more than the net. `net` is whole minor units; `percent` at the money scale, 0 to 100.
 */
export const reserveShare = (net: Amount, percent: Amount, exponent: number): Amount => {
  if (net <= 0n || percent <= 0n) return Amount(0n)
  const unit = atomsPerMinorUnit(exponent)
  const numerator = net * percent
  const denominator = PERCENT_DENOMINATOR * unit
  const whole = numerator / denominator
  const units = 2n * (numerator % denominator) >= denominator ? whole + 1n : whole
  const held = units * unit
  return Amount(held > net ? net : held)
}
