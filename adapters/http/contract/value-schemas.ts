import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { ExactNumber } from "../../../core/shared/json-text.js"

/** A decimal sent as a string ("25.00"): no exponent, sign or grouping. */
export const DecimalText = Schema.String.pipe(Schema.pattern(/^-?[0-9]+(\.[0-9]+)?$/)).annotations({
  description: "A plain decimal as a string, kept exact."
})

/** What a request accepts as a date-time: any ISO 8601 date-time with `Z` or an offset. */
export const IsoDateTime = Schema.String.annotations({ jsonSchema: { type: "string", format: "date-time" }, examples: ["2030-01-31T09:00:00Z"] })

/** What a response writes: UTC with six fraction digits and a trailing `Z` (spec 2.3). */
export const Timestamp = Schema.String.annotations({ jsonSchema: { type: "string", format: "date-time" } }).pipe(
  Schema.pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
).annotations({
  description: "ISO 8601 in UTC with microseconds and a trailing Z.",
  examples: ["2026-11-23T07:12:09.425000Z"]
})

export const NullableTimestamp = Schema.NullOr(Timestamp)

export const HttpUrl = Schema.String.annotations({ jsonSchema: { type: "string", format: "uri" } })

const ExactNumberFromSelf = Schema.declare((value: unknown): value is ExactNumber => value instanceof ExactNumber, {
  identifier: "ExactNumber"
})

/**
 * A money value in a response: a JSON number written digit for digit. Serializers hold it as an
 * ExactNumber (the schema's Type) and the JSON writer renders it; the wire form (Encoded) is a JSON
 * number. Decoding reads a parsed number back for checks; encoding to a double is refused, since
 * money never goes through floating point on its way out.
 */
const MoneyNumber = Schema.Number.annotations({ description: "An exact amount, as a JSON number with every digit.", examples: [25.5] })

export const Money = Schema.transformOrFail(MoneyNumber, ExactNumberFromSelf, {
  strict: true,
  decode: (value, _, ast) => {
    const text = String(value)
    return /^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)
      ? ParseResult.succeed(new ExactNumber(text))
      : ParseResult.fail(new ParseResult.Type(ast, value, "an amount must be a plain decimal number"))
  },
  encode: (value, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, value, "amounts are written by the JSON writer, never as doubles"))
})

export type Money = typeof Money.Type

/** Spec 2.5: a subscription amount, a decimal string with 8 fraction digits. */
export const Fixed8Amount = Schema.String.pipe(Schema.pattern(/^-?\d+\.\d{8}$/)).annotations({
  description: "A decimal string with 8 fraction digits.",
  examples: ["19.99000000"]
})

export const Environment = Schema.Literal("sandbox", "production")

/** A positive integer id (merchants, wallets, gateways). */
export const PositiveId = Schema.Number.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1))

export const Integer = Schema.Number.pipe(Schema.int())
