/**
 * `allow_payment_methods` as a merchant sends it: one string of items, or a list of such strings.
 * One reader for both of its meanings, which differ only in how items are told apart and compared.
 */
export type MethodListInput = string | ReadonlyArray<string>

const itemsOf = (input: MethodListInput | undefined, separators: RegExp, normalize: (item: string) => string): ReadonlyArray<string> => {
  if (input === undefined) return []
  const items = new Set<string>()
  for (const part of (typeof input === "string" ? [input] : input).flatMap((item) => item.split(separators))) {
    const item = normalize(part.trim())
    if (item !== "") items.add(item)
  }
  return [...items]
}

/**
 * Checkout keywords (spec 4.1): separated by commas, pipes or whitespace, matched case-insensitively
 * against gateway names and codes, so lower-cased. Empties dropped, each once, first order kept.
 */
export const normalizeKeywords = (input: MethodListInput | undefined): ReadonlyArray<string> =>
  itemsOf(input, /[\s,|]+/, (item) => item.toLowerCase())

/**
 * A subscription's method codes (spec 4.5): separated by commas, compared exactly with gateway codes,
 * so kept as sent. Empties dropped, each once, first order kept.
 */
export const methodCodes = (input: MethodListInput | undefined): ReadonlyArray<string> => itemsOf(input, /,/, (item) => item)
