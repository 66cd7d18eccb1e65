/**
 * JSON text with exact numbers. Amounts are written digit for digit from their decimal text, never
 * through a double; everything else is written as JSON.stringify would. One writer serves response
 * bodies and stored webhook bodies alike, so a number reads the same wherever it appears.
 */
export class ExactNumber {
  constructor(readonly text: string) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)) throw new RangeError(`not a plain decimal: ${text}`)
  }
}

export const renderJson = (value: unknown): string => {
  if (value instanceof ExactNumber) return value.text
  if (value === null || typeof value !== "object") {
    // undefined at the top level has no JSON form; inside objects it is skipped below.
    return JSON.stringify(value) ?? "null"
  }
  // Concatenation rather than arrays of parts: this runs for every response body (a profile of a
  // signed read had it among the kit's own top costs).
  if (Array.isArray(value)) {
    let text = "["
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index]
      text += (index === 0 ? "" : ",") + (item === undefined || typeof item === "function" ? "null" : renderJson(item))
    }
    return text + "]"
  }
  let text = "{"
  let first = true
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue
    const item: unknown = (value as Record<string, unknown>)[key]
    if (item === undefined || typeof item === "function") continue
    text += (first ? "" : ",") + JSON.stringify(key) + ":" + renderJson(item)
    first = false
  }
  return text + "}"
}
