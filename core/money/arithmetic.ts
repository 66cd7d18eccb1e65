import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Amount, MAX_BALANCE, ZERO, atomsPerMinorUnit } from "./amount.js"

// Amount is a plain bigint underneath, so these are exact; they exist to keep the brand on results
// and to give the rounding and overflow rules one home.

export const add = (a: Amount, b: Amount): Amount => Amount(a + b)

export const subtract = (a: Amount, b: Amount): Amount => Amount(a - b)

export const negate = (a: Amount): Amount => Amount(-a)

export const compare = (a: Amount, b: Amount): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0)

export const min = (a: Amount, b: Amount): Amount => (a <= b ? a : b)

export const max = (a: Amount, b: Amount): Amount => (a >= b ? a : b)

export const abs = (a: Amount): Amount => (a < 0n ? negate(a) : a)

export const isNegative = (a: Amount): boolean => a < 0n

export const isPositive = (a: Amount): boolean => a > 0n

export const isZero = (a: Amount): boolean => a === 0n

export const sum = (amounts: Iterable<Amount>): Amount => {
  let total = 0n
  for (const amount of amounts) total += amount
  return Amount(total)
}

/** True when the amount is a whole number of the currency's minor units (e.g. whole cents). */
export const fitsExponent = (amount: Amount, exponent: number): boolean =>
  amount % atomsPerMinorUnit(exponent) === 0n

/**
 * Rounds to the currency's minor unit, ties away from zero: 0.005 USD becomes 0.01 and -0.005
 * becomes -0.01. Symmetric rounding keeps a refund of a rounded amount the exact mirror of the
 * charge, which "half toward +infinity" would not.
 */
export const roundHalfUpToExponent = (amount: Amount, exponent: number): Amount => {
  const unit = atomsPerMinorUnit(exponent)
  const magnitude = amount < 0n ? -amount : amount
  const units = magnitude / unit
  const rounded = (2n * (magnitude % unit) >= unit ? units + 1n : units) * unit
  return Amount(amount < 0n ? -rounded : rounded)
}

/** A result that would leave [-limit, limit]; by default the signed 64-bit column's range. */
export class AmountOverflow extends Schema.TaggedError<AmountOverflow>()("AmountOverflow", {
  limit: Schema.BigIntFromSelf,
  message: Schema.String
}) {}

const withinLimit = (result: bigint, limit: Amount): Either.Either<Amount, AmountOverflow> =>
  result > limit || result < -limit
    ? Either.left(new AmountOverflow({ limit, message: `amount would exceed the limit of ${limit} atoms` }))
    : Either.right(Amount(result))

/** Balance updates go through here so a stored BIGINT can never overflow or wrap. */
export const checkedAdd = (a: Amount, b: Amount, limit: Amount = MAX_BALANCE): Either.Either<Amount, AmountOverflow> =>
  withinLimit(a + b, limit)

export const checkedSubtract = (
  a: Amount,
  b: Amount,
  limit: Amount = MAX_BALANCE
): Either.Either<Amount, AmountOverflow> => withinLimit(a - b, limit)

/** checkedSum stops at the first step outside the limit, as a sequence of ledger postings would. */
export const checkedSum = (
  amounts: Iterable<Amount>,
  limit: Amount = MAX_BALANCE
): Either.Either<Amount, AmountOverflow> => {
  let total: Amount = ZERO
  for (const amount of amounts) {
    const next = checkedAdd(total, amount, limit)
    if (Either.isLeft(next)) return next
    total = next.right
  }
  return Either.right(total)
}

/** Option-shaped checkedAdd for callers that only need to know whether it fits. */
export const addWithinLimit = (a: Amount, b: Amount, limit: Amount = MAX_BALANCE): Option.Option<Amount> =>
  Either.getRight(checkedAdd(a, b, limit))
