import { LosslessNumber, stringify } from "lossless-json"
import { exactJsonParser } from "../adapters/http/contract/exact-json-reader.js"
import { REQUEST_MONEY_FIELDS, RESPONSE_MONEY_FIELDS } from "./operations.js"

/**
 * JSON in and out of the merchant client without a double in between. The API writes amounts as
 * JSON numbers (spec 2.2-2.4); `JSON.parse` would turn `1234567890123.45` or `0.30000000000000004`
 * into the nearest double, and a merchant reconciling a ledger must see the digits the service
 * stored. So amounts travel as the exact decimal text: given as strings, written as JSON number
 * literals digit for digit, and read back as the text the service sent.
 */

/** A decimal amount as text, such as "19.99" or "100": what the client takes and gives for money. */
export type DecimalString = string

/** A JSON number literal (RFC 8259 section 6): the only text that can be written unquoted. */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

// Which fields carry money is read from the endpoint declarations (client/operations.ts).
const REQUEST_MONEY: ReadonlySet<string> = new Set(REQUEST_MONEY_FIELDS)
const RESPONSE_MONEY: ReadonlySet<string> = new Set(RESPONSE_MONEY_FIELDS)

const moneyLiteral = (field: string, value: unknown): LosslessNumber => {
  if (typeof value === "string" && JSON_NUMBER.test(value)) return new LosslessNumber(value)
  throw new TypeError(
    `${field} must be a decimal string such as "19.99" (got ${typeof value === "string" ? JSON.stringify(value) : typeof value}): ` +
      "a JavaScript number cannot hold every amount exactly."
  )
}

/**
 * The exact text sent (and signed) for a request body. Money fields become JSON numbers with the
 * caller's digits; fields left undefined are omitted, as JSON.stringify would.
 * Throws a TypeError, before anything is sent, for a money field that is not a decimal string.
 */
export const encodeRequestBody = (body: object): string => {
  const written: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(body)) {
    if (value === undefined) continue
    written[field] = REQUEST_MONEY.has(field) ? moneyLiteral(field, value) : value
  }
  return stringify(written) ?? "{}"
}

/** A merchant API response body. */
export const parseResponseBody = exactJsonParser(RESPONSE_MONEY)
