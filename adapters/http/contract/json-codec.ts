import { LosslessNumber, parse } from "lossless-json"
import type { Amount } from "../../../core/money/amount.js"
import { toJsonNumberText } from "../../../core/money/format.js"
import type { AmountInput } from "../../../core/money/parse.js"
import { ExactNumber } from "../../../core/shared/json-text.js"

/**
 * JSON in and out without a double in between. Request numbers are kept as their literal text
 * (LosslessNumber) so amounts are parsed exactly; response amounts are written as exact literals
 * by the core's JSON writer (ExactNumber).
 * lossless-json also refuses duplicate keys, which JSON.parse would silently resolve. A text whose
 * numbers are all plain integers and whose keys are all distinct is read by JSON.parse instead, to
 * the same values (plainKeyCount).
 */
export const parseJson = (text: string): unknown => {
  const keys = plainKeyCount(text)
  if (keys !== undefined) {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      // Malformed: lossless-json below refuses it in its own words.
      return parse(text)
    }
    const counted = { members: 0 }
    const wrapped = losslessNumbers(value, counted)
    if (counted.members === keys) return wrapped
  }
  return parse(text)
}

/** The parsed value with each number as a LosslessNumber of its text, counting the objects' members. */
const losslessNumbers = (value: unknown, counted: { members: number }): unknown => {
  if (typeof value === "number") return new LosslessNumber(String(value))
  if (typeof value !== "object" || value === null) return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = losslessNumbers(value[i], counted)
    return value
  }
  const record = value as Record<string, unknown>
  for (const key in record) {
    counted.members += 1
    record[key] = losslessNumbers(record[key], counted)
  }
  return record
}

/** An integer JSON.parse reads back digit for digit: at most 15 digits, and no negative zero. */
const PLAIN_INTEGER = /^(?:0|-?[1-9]\d{0,14})$/

const isNumberChar = (code: number) => (code >= 48 && code <= 57) || code === 45 || code === 43 || code === 46 || code === 101 || code === 69

const isWhitespace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13

/**
 * The fast path's guard: how many object keys the text names, where every number in it is a plain
 * integer; undefined where one is not (a decimal, an exponent, a long integer: only lossless-json
 * keeps its text). JSON.parse then gives the same values, each number wrapped as its own text, in a
 * fraction of lossless-json's time and allocation (the body of every initiate-payment); a key named
 * twice shows as fewer members than keys, and goes to lossless-json, which refuses it.
 */
const plainKeyCount = (text: string): number | undefined => {
  let keys = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 34) {
      i += 1
      while (i < text.length) {
        const inner = text.charCodeAt(i)
        if (inner === 34) break
        i += inner === 92 ? 2 : 1
      }
      let after = i + 1
      while (after < text.length && isWhitespace(text.charCodeAt(after))) after += 1
      if (text.charCodeAt(after) === 58) keys += 1
    } else if (code === 45 || (code >= 48 && code <= 57)) {
      let end = i + 1
      while (end < text.length && isNumberChar(text.charCodeAt(end))) end += 1
      if (!PLAIN_INTEGER.test(text.slice(i, end))) return undefined
      i = end - 1
    }
  }
  return keys
}

export { renderJson } from "../../../core/shared/json-text.js"

/** An amount as a JSON number, written digit for digit. */
export const jsonAmount = (amount: Amount): ExactNumber => new ExactNumber(toJsonNumberText(amount))

export const isJsonNumber = (value: unknown): value is LosslessNumber => value instanceof LosslessNumber

/** A request value that may carry an amount: a JSON number (as text) or a decimal string. */
export const toAmountInput = (value: unknown): AmountInput | undefined =>
  isJsonNumber(value)
    ? { kind: "json-number", text: value.value }
    : typeof value === "string"
    ? { kind: "string", value }
    : undefined

/** Plain JS values for fields that are small integers by rule (pages, ids): undefined unless exact. */
export const toSafeInteger = (value: unknown): number | undefined => {
  if (!isJsonNumber(value) || !/^-?\d{1,15}$/.test(value.value)) return undefined
  return Number(value.value)
}
