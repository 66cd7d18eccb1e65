import type * as AST from "effect/SchemaAST"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

/**
 * Column decoders for what the two drivers hand back. better-sqlite3 (with SafeIntegers) returns
 * every integer as bigint; node-pg returns BIGINT as a string and SMALLINT/INTEGER as number.
 * Each decoder accepts all three shapes and refuses anything lossy.
 */
const IntegerLike = Schema.Union(Schema.BigIntFromSelf, Schema.Number, Schema.String)

const INTEGER_TEXT = /^-?\d{1,19}$/

/** A stored value that is not what its column holds: the row is refused, never guessed at. */
export class ColumnDecodeError extends Error {}

/**
 * The column rules as plain functions, for the tables' readers (table.ts); the Schema columns below
 * are these same rules, so a rule is written once.
 */
export const int64Value = (value: unknown): bigint => {
  if (typeof value === "bigint") return value
  if (typeof value === "number") {
    if (Number.isSafeInteger(value)) return BigInt(value)
    throw new ColumnDecodeError("integer column came back as a non-integer number")
  }
  if (typeof value === "string" && INTEGER_TEXT.test(value)) return BigInt(value)
  throw new ColumnDecodeError("integer column came back as non-integer text")
}

export const safeIntValue = (value: unknown): number => {
  const integer = int64Value(value)
  if (integer >= BigInt(Number.MIN_SAFE_INTEGER) && integer <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(integer)
  throw new ColumnDecodeError("integer exceeds the safe range")
}

export const textValue = (value: unknown): string => {
  if (typeof value === "string") return value
  throw new ColumnDecodeError("text column came back as something else")
}

export const nullable = <A>(decode: (value: unknown) => A) => (value: unknown): A | null => (value === null ? null : decode(value))

/** One of a literal schema's words. */
export const literalValue = <L extends string>(schema: { readonly literals: ReadonlyArray<L> }) => {
  const words: ReadonlyArray<string> = schema.literals
  return (value: unknown): L => {
    if (typeof value === "string" && words.includes(value)) return value as L
    throw new ColumnDecodeError(`expected one of ${words.join(", ")}`)
  }
}

/** A JSON array kept in a TEXT column, each item read by `item`. */
export const jsonListValue = <A>(item: (value: unknown) => A) => (value: unknown): Array<A> => {
  let parsed: unknown
  try {
    parsed = JSON.parse(textValue(value))
  } catch (error) {
    throw error instanceof ColumnDecodeError ? error : new ColumnDecodeError("JSON column does not parse")
  }
  if (!Array.isArray(parsed)) throw new ColumnDecodeError("JSON list column holds no array")
  return parsed.map(item)
}

const asParseResult = <A>(decode: (value: unknown) => A) => (value: unknown, _: unknown, ast: AST.AST) => {
  try {
    return ParseResult.succeed(decode(value))
  } catch (error) {
    return ParseResult.fail(new ParseResult.Type(ast, value, error instanceof Error ? error.message : String(error)))
  }
}

export const Int64 = Schema.transformOrFail(IntegerLike, Schema.BigIntFromSelf, {
  strict: true,
  decode: asParseResult(int64Value),
  encode: (value) => ParseResult.succeed(value)
})

/** Ids and counts the API shows as JSON numbers: must fit a safe integer. */
export const SafeInt = Schema.transformOrFail(IntegerLike, Schema.Number, {
  strict: true,
  decode: asParseResult(safeIntValue),
  encode: (value) => ParseResult.succeed(BigInt(value))
})

/** Booleans are stored as SMALLINT 0/1 in both databases (better-sqlite3 cannot bind booleans). */
export const flagValue = (value: unknown): boolean => {
  const integer = int64Value(value)
  if (integer === 0n || integer === 1n) return integer === 1n
  throw new ColumnDecodeError("flag column is neither 0 nor 1")
}

export const Flag = Schema.transformOrFail(IntegerLike, Schema.Boolean, {
  strict: true,
  decode: asParseResult(flagValue),
  encode: (value) => ParseResult.succeed(value ? 1n : 0n)
})

export const flag = (value: boolean): number => (value ? 1 : 0)

export const NullableString = Schema.NullOr(Schema.String)

/** A JSON document kept in a TEXT column. */
export const JsonText = <A, I>(schema: Schema.Schema<A, I>) => Schema.parseJson(schema)

export const stringListValue = jsonListValue(textValue)
export const intListValue = jsonListValue((value) => {
  if (typeof value === "number" && Number.isInteger(value)) return value
  throw new ColumnDecodeError("list item is not an integer")
})

/** A JSON list in a TEXT column, by the plain rule `decode` (so the hand-written mappers share it). */
const jsonList = <A>(item: Schema.Schema<A>, decode: (value: unknown) => Array<A>) =>
  Schema.transformOrFail(Schema.String, Schema.Array(item), {
    strict: true,
    decode: asParseResult(decode),
    encode: (list) => ParseResult.succeed(JSON.stringify(list))
  })

export const StringList = jsonList(Schema.String, stringListValue)
export const IntList = jsonList(Schema.Int, intListValue)
export const JsonObject = JsonText(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
