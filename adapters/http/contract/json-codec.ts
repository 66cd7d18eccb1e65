import { LosslessNumber, parse } from "lossless-json"
import type { Amount } from "../../../core/money/amount.js"
import { toJsonNumberText } from "../../../core/money/format.js"
import type { AmountInput } from "../../../core/money/parse.js"
import { ExactNumber } from "../../../core/shared/json-text.js"

/**
 * JSON in and out without a double in between. Request numbers are kept as their literal text
 * (LosslessNumber) so amounts are parsed exactly; response amounts are written as exact literals
 * by the core's JSON writer (ExactNumber).
 * lossless-json also refuses duplicate keys, which JSON.parse would silently resolve.
 */
export const parseJson = (text: string): unknown => parse(text)

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
