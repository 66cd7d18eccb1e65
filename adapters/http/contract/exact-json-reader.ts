import { isLosslessNumber, isSafeNumber, parse } from "lossless-json"

const INTEGER = /^-?\d+$/

/**
 * A parser of JSON bodies whose `moneyFields` come back as their exact text at any depth; other
 * numbers (ids, counts, Unix seconds) as JS numbers when they are integers a double holds exactly,
 * else as their text rather than rounded. Throws a SyntaxError for text that is not JSON (or repeats
 * a key). The embedded kit's typed admin API reads its answers with it too.
 */
export const exactJsonParser = (moneyFields: ReadonlySet<string>) => (text: string): unknown =>
  parse(text, (field, value) => {
    if (!isLosslessNumber(value)) return value
    const literal = value.toString()
    if (moneyFields.has(field)) return literal
    return INTEGER.test(literal) && isSafeNumber(literal) ? Number(literal) : literal
  })
