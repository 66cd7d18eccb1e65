import * as Arbitrary from "effect/Arbitrary"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as fc from "effect/FastCheck"
import { describe, expect, it } from "vitest"
import { type AnyColumn, type AnyTable, table } from "./table.js"
import { DECLARED_TABLES } from "./testing/table-drift.js"

const attempt = <A>(read: () => A): Either.Either<A, unknown> => {
  try {
    return Either.right(read())
  } catch (error) {
    return Either.left(error)
  }
}

/** An integer as either driver hands it back: better-sqlite3 a bigint, node-pg a string or a number. */
const storedInteger = (value: fc.Arbitrary<bigint>) =>
  fc.oneof(value, value.map(String), value.filter((n) => n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER)).map(Number))
const text = fc.string({ maxLength: 12 })

/** What a driver hands back for a valid value of the column. */
const stored = (column: AnyColumn): fc.Arbitrary<unknown> => {
  if (column.kind === "schema") {
    const encode = Schema.encodeSync(column.schema)
    return Arbitrary.make(column.schema).map((value) => encode(value))
  }
  const value = ((): fc.Arbitrary<unknown> => {
    switch (column.kind) {
      case "text":
        return text
      case "int64":
        return storedInteger(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))
      case "safeInt":
        return storedInteger(fc.bigInt({ min: BigInt(Number.MIN_SAFE_INTEGER), max: BigInt(Number.MAX_SAFE_INTEGER) }))
      case "flag":
        return storedInteger(fc.constantFrom(0n, 1n))
      case "literal":
        return fc.constantFrom(...(column as AnyColumn & { readonly literals: ReadonlyArray<string> }).literals)
      case "stringList":
        return fc.array(text, { maxLength: 3 }).map((list) => JSON.stringify(list))
      case "intList":
        return fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { maxLength: 3 }).map((list) => JSON.stringify(list))
    }
  })()
  return column.nullable ? fc.option(value, { nil: null }) : value
}

const validRow = (table: AnyTable) =>
  fc.record(Object.fromEntries(Object.entries(table.columns).map(([name, column]) => [name, stored(column)])))

/** A value no column holds as it should. */
const badValue = fc.constantFrom<unknown>(
  undefined, null, 1.5, "12x", "not json", "{}", "[1.5]", "[\"a\"", {}, true, 2n ** 64n, 2n, -1n, "unknown-status"
)

// Each declared table's own reader (hand-written for a hot table), and the generic one of its columns.
const readers = DECLARED_TABLES.flatMap((declared) => [
  [`${declared.name} table's reader`, declared] as const,
  [`${declared.name} table's generic reader`, table(declared.name, declared.columns)] as const
])

describe.each(readers)("the %s", (_, table) => {
  const bySchema = (row: unknown) => Schema.decodeUnknownEither(table.Row)(row)
  const byHand = (row: Readonly<Record<string, unknown>>) => attempt(() => table.read(row))

  it("reads every valid row, in either driver's shape, exactly as the row Schema does", () => {
    fc.assert(fc.property(validRow(table), (row) => {
      expect(byHand(row)).toEqual(bySchema(row))
      expect(Either.isRight(byHand(row))).toBe(true)
    }), { numRuns: 300 })
  })

  it("refuses a row whenever the row Schema refuses it, column by column", () => {
    fc.assert(fc.property(validRow(table), fc.constantFrom(...Object.keys(table.columns)), badValue, (row, column, value) => {
      const spoiled = { ...row, [column]: value }
      expect(Either.isLeft(byHand(spoiled))).toBe(Either.isLeft(bySchema(spoiled)))
    }), { numRuns: 600 })
  })

  it("writes what it reads back: a read row, written (the store generating its keys) and read again, is the same row", () => {
    fc.assert(fc.property(validRow(table), (row) => {
      const read = table.read(row)
      expect(table.read({ ...row, ...table.values(read as never) })).toEqual(read)
    }), { numRuns: 200 })
  })

  it("writes a change's columns as the whole row writes them, and no other", () => {
    fc.assert(fc.property(validRow(table), fc.func(fc.boolean()), (row, named) => {
      const whole = table.values(table.read(row) as never)
      const change = Object.fromEntries(Object.entries(table.read(row) as Record<string, unknown>).filter(([column]) => named(column)))
      const expected = Object.fromEntries(Object.entries(whole).filter(([column]) => named(column)))
      expect(table.changes(change as never)).toEqual(expected)
    }), { numRuns: 200 })
  })
})
