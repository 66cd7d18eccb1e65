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
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : renderJson(item))).join(",")}]`
  const parts: Array<string> = []
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined || typeof item === "function") continue
    parts.push(`${JSON.stringify(key)}:${renderJson(item)}`)
  }
  return `{${parts.join(",")}}`
}
