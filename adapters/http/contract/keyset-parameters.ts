import * as Schema from "effect/Schema"
import type { Instant } from "../../../core/shared/instant.js"
import { MAX_CURSOR_LENGTH } from "../../../core/shared/keyset-page.js"
import { integerSchema } from "./field-rules.js"
import type { ListParameter } from "./parameters.js"
import { IsoDateTime } from "./value-schemas.js"

/** The query parameters every newest-first, keyset-paged list shares (core/shared/keyset-page.ts). */

/** An optional filter matched exactly: a reference, a type, an id. */
export const textParameter = (name: string, max: number, description: string): ListParameter<string | undefined> => ({
  name,
  in: "query",
  required: false,
  description,
  schema: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(max)),
  read: (query) => query.text(name, max)
})

export const limitParameter = (description: string, fallback: number, max: number): ListParameter<number> => ({
  name: "limit",
  in: "query",
  required: false,
  description,
  schema: integerSchema({ min: 1, max }).annotations({ default: fallback }),
  read: (query) => query.integer("limit", 1, max) ?? fallback
})

export const cursorParameter = (description: string): ListParameter<string | undefined> => ({
  name: "cursor",
  in: "query",
  required: false,
  description,
  schema: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_CURSOR_LENGTH)),
  read: (query) => query.text("cursor", MAX_CURSOR_LENGTH)
})

export const timeParameter = (name: "since" | "until" | "from" | "to", description: string): ListParameter<Instant | undefined> => ({
  name,
  in: "query",
  required: false,
  description,
  schema: IsoDateTime,
  read: (query) => query.instant(name)
})
