import * as Schema from "effect/Schema"
import {
  ColumnDecodeError,
  Flag,
  flag,
  flagValue,
  Int64,
  int64Value,
  IntList,
  intListValue,
  literalValue,
  nullable as nullableValue,
  SafeInt,
  safeIntValue,
  StringList,
  stringListValue,
  textValue
} from "./columns.js"

/**
 * A column's type as both stores' catalogues report it (lower case), and as PostgreSQL's casts spell
 * it; "serial" is a generated key (migrations' `{{id}}`: BIGINT on PostgreSQL, INTEGER on SQLite).
 */
export type SqlType = "text" | "bigint" | "smallint" | "integer" | "serial"

/**
 * One column's rule, stated once: its Schema (for a row decoded by Schema), the same rule as a plain
 * function (for the fast reader on hot reads), how a value is written, and the column's SQL type.
 * `kind` names the rule, so a test can make the values a driver hands back for it.
 */
export interface Column<A, I> {
  readonly kind: "text" | "int64" | "safeInt" | "flag" | "literal" | "stringList" | "intList" | "schema"
  readonly nullable: boolean
  readonly schema: Schema.Schema<A, I>
  readonly read: (value: unknown) => A
  readonly write: (value: A) => unknown
  readonly type: SqlType
}

/** Any column, whatever it holds. */
export interface AnyColumn {
  readonly kind: Column<unknown, unknown>["kind"]
  readonly nullable: boolean
  readonly schema: Schema.Schema.AnyNoContext
  readonly read: (value: unknown) => unknown
  readonly write: (value: never) => unknown
  readonly type: SqlType
}

const same = <A>(value: A): unknown => value

const column = <A, I>(
  kind: Column<A, I>["kind"],
  schema: Schema.Schema<A, I>,
  read: (value: unknown) => A,
  type: SqlType,
  write: (value: A) => unknown = same
): Column<A, I> => ({ kind, nullable: false, schema, read, write, type })

export const text = column("text", Schema.String, textValue, "text")
export const int64 = column("int64", Int64, int64Value, "bigint")
/** Ids and counts the API shows as JSON numbers. */
export const safeInt = column("safeInt", SafeInt, safeIntValue, "bigint")
/** A key the store generates (`{{id}}`), read as a safe integer and never written. */
export const serialId: Column<number, string | number | bigint> & { readonly generated: true } = { ...safeInt, type: "serial", generated: true }
/** A boolean kept as SMALLINT 0/1. */
export const boolean = column("flag", Flag, flagValue, "smallint", flag)
export const stringList = column("stringList", StringList, stringListValue, "text", (list) => JSON.stringify(list))
export const intList = column("intList", IntList, intListValue, "text", (list) => JSON.stringify(list))

/** One of a literal schema's words, kept as TEXT. */
export const literal = <S extends Schema.Schema.AnyNoContext & { readonly literals: ReadonlyArray<string> }>(
  schema: S
): Column<Schema.Schema.Type<S>, Schema.Schema.Encoded<S>> & { readonly literals: ReadonlyArray<string> } => ({
  ...column("literal", schema, literalValue(schema) as (value: unknown) => Schema.Schema.Type<S>, "text"),
  literals: schema.literals
})

/**
 * A column whose rule is a Schema of its own (a JSON document): the fast reader
 * runs that Schema, so the two cannot differ. For columns off the hot path.
 */
export const bySchema = <A, I>(schema: Schema.Schema<A, I>, type: SqlType): Column<A, I> => {
  const decode = Schema.decodeUnknownSync(schema)
  const encode = Schema.encodeSync(schema)
  return column("schema", schema, (value) => {
    try {
      return decode(value)
    } catch (error) {
      throw new ColumnDecodeError(error instanceof Error ? error.message : String(error))
    }
  }, type, encode)
}

export const nullable = <A, I>(of: Column<A, I>): Column<A | null, I | null> => ({
  ...of,
  nullable: true,
  schema: Schema.NullOr(of.schema),
  read: nullableValue(of.read),
  write: (value) => (value === null ? null : of.write(value))
})

/** The same rule in a column the migration typed otherwise (INTEGER for a small count). */
export const typed = <C extends AnyColumn>(of: C, type: SqlType): C => ({ ...of, type })

export type Columns = Readonly<Record<string, AnyColumn>>

/** A row as read: each column's value by its rule. */
export type RowOf<C extends Columns> = { readonly [K in keyof C]: Schema.Schema.Type<C[K]["schema"]> }

/** A row as written: every column but those the store generates. */
export type NewRowOf<C extends Columns> = {
  readonly [K in keyof C as C[K] extends { readonly generated: true } ? never : K]: Schema.Schema.Type<C[K]["schema"]>
}

/** Any declared table, whatever its columns. */
export interface AnyTable {
  readonly name: string
  readonly columns: Columns
  readonly Row: Schema.Schema.AnyNoContext
  readonly read: (row: Readonly<Record<string, unknown>>) => unknown
  readonly values: (row: never) => Record<string, unknown>
  readonly changes: (change: never) => Record<string, unknown>
}

export interface Table<C extends Columns> {
  readonly name: string
  readonly columns: C
  /** The row as a Schema, for the reads that decode by Schema and for the tests. */
  readonly Row: Schema.Struct<{ readonly [K in keyof C]: C[K]["schema"] }>
  /** A stored row by the same rules, by hand: a Schema decode of a wide row costs several times the read. Throws ColumnDecodeError. */
  readonly read: (row: Readonly<Record<string, unknown>>) => RowOf<C>
  /** A whole row as it is written (INSERT): every column named but the generated ones, each by its rule. */
  readonly values: (row: NewRowOf<C>) => Record<string, unknown>
  /** The columns a change names, each as it is written (UPDATE ... SET); an absent one keeps its value. */
  readonly changes: (change: Partial<NewRowOf<C>>) => Record<string, unknown>
}

/**
 * A table declared once: its columns and their rules, from which the row Schema, the fast reader and
 * the written values follow. The migration stays its DDL; the table-drift tests hold the two to
 * each other on both stores, names and types.
 */
export const table = <C extends Columns>(name: string, columns: C): Table<C> => {
  const entries = Object.entries(columns)
  const names = entries.map(([column]) => column)
  const readers = entries.map(([, rule]) => rule.read)
  const written = entries.filter(([, rule]) => !("generated" in rule))
  const writtenNames = written.map(([column]) => column)
  const writers = written.map(([, rule]) => rule.write as (value: unknown) => unknown)
  const fields = Object.fromEntries(entries.map(([column, rule]) => [column, rule.schema]))
  return {
    name,
    columns,
    Row: Schema.Struct(fields) as unknown as Table<C>["Row"],
    read: (row) => {
      const out: Record<string, unknown> = {}
      let i = 0
      try {
        for (; i < names.length; i++) out[names[i]!] = readers[i]!(row[names[i]!])
      } catch (error) {
        throw error instanceof ColumnDecodeError ? new ColumnDecodeError(`${name}.${names[i]}: ${error.message}`) : error
      }
      return out as RowOf<C>
    },
    values: (row) => {
      const out: Record<string, unknown> = {}
      const given = row as Readonly<Record<string, unknown>>
      for (let i = 0; i < writtenNames.length; i++) out[writtenNames[i]!] = writers[i]!(given[writtenNames[i]!])
      return out
    },
    changes: (change) => {
      const out: Record<string, unknown> = {}
      const given = change as Readonly<Record<string, unknown>>
      for (let i = 0; i < writtenNames.length; i++) {
        if (given[writtenNames[i]!] !== undefined) out[writtenNames[i]!] = writers[i]!(given[writtenNames[i]!])
      }
      return out
    }
  }
}

/**
 * The table read by a hand-written reader instead (each column by its declared rule, by name): for a
 * table on the hottest reads, where the generic reader's loop over the columns by name cost three
 * times a hand-written one. The fast readers' property test holds it to the row Schema like any other.
 */
export const readByHand = <C extends Columns>(
  of: Table<C>,
  reader: (columns: C) => (row: { readonly [K in keyof C]: unknown }) => RowOf<C>
): Table<C> => ({ ...of, read: reader(of.columns) as Table<C>["read"] })
