import * as Schema from "effect/Schema"
import { Integer } from "./value-schemas.js"

export const PageMeta = Schema.Struct({
  current_page: Integer,
  per_page: Integer,
  total: Integer,
  last_page: Integer
}).annotations({ identifier: "PageMeta" })

/** `{ data, meta }`: the one envelope of every page-numbered list. */
export const pageOf = <S extends Schema.Schema.AnyNoContext>(item: S, identifier: string) =>
  Schema.Struct({ data: Schema.Array(item), meta: PageMeta }).annotations({ identifier })

/** `{ data: [...] }`: a whole list. */
export const listOf = <S extends Schema.Schema.AnyNoContext>(item: S, identifier: string) =>
  Schema.Struct({ data: Schema.Array(item) }).annotations({ identifier })

/** `{ data: <resource> }`. */
export const dataOf = <S extends Schema.Schema.AnyNoContext>(item: S, identifier: string) =>
  Schema.Struct({ data: item }).annotations({ identifier })
