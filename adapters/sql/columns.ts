import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * Column decoders for what the two drivers hand back. better-sqlite3 (with SafeIntegers) returns
 * every integer as bigint; node-pg returns BIGINT as a string and SMALLINT/INTEGER as number.
 * Each decoder accepts all three shapes and refuses anything lossy.
 */
const IntegerLike = Schema.Union(Schema.BigIntFromSelf, Schema.Number, Schema.String)

const INTEGER_TEXT = /^-?\d{1,19}$/

export const Int64 = Schema.transformOrFail(IntegerLike, Schema.BigIntFromSelf, {
  strict: true,
  decode: (value, _, ast) => {
    if (typeof value === "bigint") return ParseResult.succeed(value)
    if (typeof value === "number") {
      return Number.isSafeInteger(value)
        ? ParseResult.succeed(BigInt(value))
        : ParseResult.fail(new ParseResult.Type(ast, value, "integer column came back as a non-integer number"))
    }
    return INTEGER_TEXT.test(value)
      ? ParseResult.succeed(BigInt(value))
      : ParseResult.fail(new ParseResult.Type(ast, value, "integer column came back as non-integer text"))
  },
  encode: (value) => ParseResult.succeed(value)
})

/** Ids and counts the API shows as JSON numbers: must fit a safe integer. */
export const SafeInt = Schema.transformOrFail(Int64, Schema.Number, {
  strict: true,
  decode: (value, _, ast) =>
    value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)
      ? ParseResult.succeed(Number(value))
      : ParseResult.fail(new ParseResult.Type(ast, value, "integer exceeds the safe range")),
  encode: (value) => ParseResult.succeed(BigInt(value))
})

/** Booleans are stored as SMALLINT 0/1 in both databases (better-sqlite3 cannot bind booleans). */
export const Flag = Schema.transformOrFail(Int64, Schema.Boolean, {
  strict: true,
  decode: (value, _, ast) =>
    value === 0n || value === 1n
      ? ParseResult.succeed(value === 1n)
      : ParseResult.fail(new ParseResult.Type(ast, value, "flag column is neither 0 nor 1")),
  encode: (value) => ParseResult.succeed(value ? 1n : 0n)
})

export const flag = (value: boolean): number => (value ? 1 : 0)

export const NullableInt64 = Schema.NullOr(Int64)
export const NullableString = Schema.NullOr(Schema.String)

/** A JSON document kept in a TEXT column. */
export const JsonText = <A, I>(schema: Schema.Schema<A, I>) => Schema.parseJson(schema)

export const StringList = JsonText(Schema.Array(Schema.String))
export const IntList = JsonText(Schema.Array(Schema.Int))
export const JsonObject = JsonText(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
