import * as Either from "effect/Either"
import { isSafeNumber } from "lossless-json"
import { isJsonNumber } from "./json-codec.js"

class UnsafeNumber {
  constructor(readonly text: string) {}
}

const toPlain = (value: unknown): unknown => {
  if (isJsonNumber(value)) {
    if (!isSafeNumber(value.value)) throw new UnsafeNumber(value.value)
    return Number(value.value)
  }
  if (Array.isArray(value)) return value.map(toPlain)
  if (typeof value === "object" && value !== null) {
    // fromEntries defines own properties, so a "__proto__" key stays a key and never a prototype.
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]))
  }
  return value
}

/**
 * A free-form JSON object from a request (a plugin's config) as plain values. Request numbers
 * arrive as exact text; one a double cannot hold exactly is refused rather than silently changed,
 * because the stored document would then differ from what the administrator sent.
 */
export const plainJsonObject = (value: unknown): Either.Either<Readonly<Record<string, unknown>>, string> => {
  if (typeof value !== "object" || value === null || Array.isArray(value) || isJsonNumber(value)) {
    return Either.left("must be a JSON object")
  }
  try {
    return Either.right(toPlain(value) as Readonly<Record<string, unknown>>)
  } catch (error) {
    if (error instanceof UnsafeNumber) return Either.left(`holds ${error.text}, which is not exact as a number: send it as a string`)
    throw error
  }
}
