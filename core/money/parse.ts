import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { Amount, ATOMS_PER_UNIT, MAX_AMOUNT, SCALE, ZERO, atomsPerMinorUnit } from "./amount.js"

/**
 * An amount as it arrived in a request. JSON numbers are kept as their literal text by the
 * lossless JSON parser, so no digit was ever rounded through a double before reaching here.
 */
export type AmountInput =
  | { readonly kind: "json-number"; readonly text: string }
  | { readonly kind: "string"; readonly value: string }

export const AmountErrorReason = Schema.Literal("format", "negative", "zero", "too_many_decimals", "out_of_range")
export type AmountErrorReason = typeof AmountErrorReason.Type

export class AmountError extends Schema.TaggedError<AmountError>()("AmountError", {
  reason: AmountErrorReason,
  message: Schema.String
}) {}

export interface ParseAmountOptions {
  /** Default false: most inputs are prices, refunds or fees, which are never negative. */
  readonly allowNegative?: boolean
  /** Default true: callers that need a positive amount say so. */
  readonly allowZero?: boolean
}

/**
 * Longer literals are refused before any digit work. 64 characters comfortably holds every
 * acceptable amount in any notation; the cap keeps hostile inputs (thousands of digits) cheap.
 */
export const MAX_AMOUNT_TEXT_LENGTH = 64

/** Integer digits of MAX_AMOUNT: any value with more is out of range whatever its fraction. */
const MAX_INTEGER_DIGITS = BigInt(String(MAX_AMOUNT / ATOMS_PER_UNIT).length)

// RFC 8259 number grammar: no leading "+", no leading zeros, no bare "." at either end.
const JSON_NUMBER = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?)([0-9]+))?$/

// Strings are held to a plain decimal: no exponent, no sign but "-", no whitespace, no ".5" or "5.",
// no digit grouping. Leading zeros ("007.50") are tolerated because they cannot change the value.
const PLAIN_DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/

/** value = (-1)^negative × digits × 10^power, before any normalisation. */
interface DecimalLiteral {
  readonly negative: boolean
  readonly digits: string
  readonly power: bigint
}

const OUT_OF_RANGE = `The amount must not exceed ${MAX_AMOUNT / ATOMS_PER_UNIT}.${"9".repeat(SCALE)}.`

const fail = (reason: AmountErrorReason, message: string) => Either.left(new AmountError({ reason, message }))

const readLiteral = (input: AmountInput): Either.Either<DecimalLiteral, AmountError> => {
  const text = input.kind === "json-number" ? input.text : input.value
  const what = input.kind === "json-number" ? "JSON number" : "decimal string"
  if (text.length > MAX_AMOUNT_TEXT_LENGTH) {
    return fail("format", `The amount must be a ${what} of at most ${MAX_AMOUNT_TEXT_LENGTH} characters.`)
  }
  const match = (input.kind === "json-number" ? JSON_NUMBER : PLAIN_DECIMAL).exec(text)
  if (match === null) {
    return fail("format", `The amount must be a valid ${what}; got ${JSON.stringify(text)}.`)
  }
  const [, sign = "", integer = "", fraction = "", exponentSign = "", exponentDigits = "0"] = match
  // The exponent text is at most ~60 digits thanks to the length cap, so this bigint stays tiny.
  const exponent = BigInt(exponentDigits) * (exponentSign === "-" ? -1n : 1n)
  return Either.right({
    negative: sign === "-",
    digits: integer + fraction,
    power: exponent - BigInt(fraction.length)
  })
}

/**
 * Exact value of a literal as atoms, checking sign, zero, range and the currency's minor unit.
 * Range is judged from digit counts before any power of ten is built, so `1e999999999` and
 * `1e-999999999` are refused without materialising huge numbers.
 */
const toAtoms = (
  literal: DecimalLiteral,
  exponent: number,
  allowNegative: boolean,
  allowZero: boolean
): Either.Either<Amount, AmountError> => {
  const significant = literal.digits.replace(/^0+/, "")
  if (significant === "") {
    // "-0" is zero, not a negative amount: the value is what matters, not the spelling.
    return allowZero ? Either.right(ZERO) : fail("zero", "The amount must be greater than zero.")
  }
  if (literal.negative && !allowNegative) {
    return fail("negative", "The amount must not be negative.")
  }
  const coefficient = significant.replace(/0+$/, "")
  // value = coefficient × 10^power with no leading or trailing zeros in coefficient.
  const power = literal.power + BigInt(significant.length - coefficient.length)
  if (BigInt(coefficient.length) + power > MAX_INTEGER_DIGITS) {
    return fail("out_of_range", OUT_OF_RANGE)
  }
  if (power < -BigInt(exponent)) {
    return fail(
      "too_many_decimals",
      exponent === 0
        ? "The amount must be a whole number in this currency."
        : `The amount must not have more than ${exponent} decimal places in this currency.`
    )
  }
  // power >= -exponent >= -SCALE and power <= MAX_INTEGER_DIGITS, so the shift is a small non-negative power.
  const magnitude = BigInt(coefficient) * 10n ** (power + BigInt(SCALE))
  if (magnitude > MAX_AMOUNT) {
    return fail("out_of_range", OUT_OF_RANGE)
  }
  return Either.right(Amount(literal.negative ? -magnitude : magnitude))
}

/**
 * Parses an amount exactly, with at most `exponent` significant fraction digits (trailing zeros do
 * not count: "12.50" is a valid USD amount, "1.0" a valid JPY one). `exponent` comes from the
 * currency catalog and must be 0..8; anything else is a programming error and throws.
 */
export const parseAmount = (
  input: AmountInput,
  exponent: number,
  options: ParseAmountOptions = {}
): Either.Either<Amount, AmountError> => {
  atomsPerMinorUnit(exponent)
  return Either.flatMap(readLiteral(input), (literal) =>
    toAtoms(literal, exponent, options.allowNegative ?? false, options.allowZero ?? true)
  )
}

/** For ledger adjustments and deltas, where both signs and zero are meaningful. */
export const parseSignedAmount = (input: AmountInput, exponent: number): Either.Either<Amount, AmountError> =>
  parseAmount(input, exponent, { allowNegative: true, allowZero: true })

/** 100% at the fixed scale: percents are stored like amounts, so 2.5% is 250_000_000n. */
export const MAX_FEE_PERCENT = Amount(100n * ATOMS_PER_UNIT)

// The amount messages speak of currencies; a percent's caller needs them in its own terms.
const PERCENT_MESSAGES: Partial<Record<AmountErrorReason, string>> = {
  negative: "The fee percent must not be negative.",
  out_of_range: "The fee percent must be between 0 and 100.",
  too_many_decimals: `The fee percent must not have more than ${SCALE} decimal places.`
}

const asPercentError = (error: AmountError): AmountError => {
  const message = PERCENT_MESSAGES[error.reason]
  return message === undefined ? error : new AmountError({ reason: error.reason, message })
}

/** A fee percentage from 0 to 100 inclusive with at most 8 fraction digits. */
export const parseFeePercent = (input: AmountInput): Either.Either<Amount, AmountError> =>
  Either.mapLeft(
    Either.flatMap(
      parseAmount(input, SCALE, { allowNegative: false, allowZero: true }),
      (percent): Either.Either<Amount, AmountError> =>
        percent > MAX_FEE_PERCENT ? fail("out_of_range", "The fee percent must be between 0 and 100.") : Either.right(percent)
    ),
    asPercentError
  )
