/**
 * Rules for a subscription's `metadata` (spec 4.5: a JSON object of at most 50 top-level entries that
 * must not hold secrets or card data). Metadata is echoed in every API answer and webhook, so what
 * looks like a card number or a secret is refused rather than stored and sent around.
 */
export const MAX_METADATA_ENTRIES = 50
export const MAX_METADATA_KEY_LENGTH = 40
/** The whole object as JSON text; keeps every response and webhook that echoes it small. */
export const MAX_METADATA_BYTES = 8 * 1024

// `pan` stands alone or between separators (`card_pan`); `\b` would miss snake_case, `_` being a word character.
const SECRET_KEY = /passw(or)?d|passphrase|(?<![a-z\d])pass(?![a-z\d])|secret|token|api[_-]?key|private[_-]?key|cvv|cvc|card[_-]?(number|no)|(?<![a-z\d])pan(?![a-z\d])|iban/i

// Digit groups joined by single spaces or dashes, as card numbers are written.
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g
const CARD_DIGITS = { min: 13, max: 19 }

const passesLuhn = (digits: string): boolean => {
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i])
    if (i % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

/**
 * Whether text holds what is probably a payment card number: whole consecutive digit groups, 13 to 19
 * digits together, that pass Luhn. Every such span of a run is tried, so digits written next to the
 * number (an expiry, a CVV, a prefix: `4111 1111 1111 1111 12/28`) do not hide it.
 */
export const holdsCardNumber = (text: string): boolean =>
  Array.from(text.matchAll(DIGIT_RUN), (match) => match[0].split(/[ -]/)).some((groups) =>
    groups.some((_, first) => {
      let digits = ""
      for (let last = first; last < groups.length && digits.length + groups[last]!.length <= CARD_DIGITS.max; last++) {
        digits += groups[last]
        if (digits.length >= CARD_DIGITS.min && passesLuhn(digits)) return true
      }
      return false
    }))

const texts = (value: unknown): ReadonlyArray<string> => {
  if (typeof value === "string") return [value]
  if (typeof value === "number") return [String(value)]
  if (Array.isArray(value)) return value.flatMap(texts)
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, item]) => [key, ...texts(item)])
  return []
}

const keysDeep = (value: unknown): ReadonlyArray<string> => {
  if (Array.isArray(value)) return value.flatMap(keysDeep)
  if (typeof value === "object" && value !== null) return Object.entries(value).flatMap(([key, item]) => [key, ...keysDeep(item)])
  return []
}

/** What is wrong with a metadata object (a message fragment for the field), or undefined. */
export const metadataProblem = (metadata: Readonly<Record<string, unknown>>): string | undefined => {
  const keys = Object.keys(metadata)
  if (keys.length > MAX_METADATA_ENTRIES) return `must not have more than ${MAX_METADATA_ENTRIES} top-level entries`
  const longKey = keys.find((key) => [...key].length > MAX_METADATA_KEY_LENGTH || key.trim() === "")
  if (longKey !== undefined) return `keys must be 1 to ${MAX_METADATA_KEY_LENGTH} characters`
  if (new TextEncoder().encode(JSON.stringify(metadata)).length > MAX_METADATA_BYTES) return `must not be larger than ${MAX_METADATA_BYTES} bytes as JSON`
  const secretKey = keysDeep(metadata).find((key) => SECRET_KEY.test(key))
  if (secretKey !== undefined) return `must not hold secrets: the key ${JSON.stringify(secretKey)} names one`
  if (texts(metadata).some(holdsCardNumber)) return "must not hold card data: a value looks like a card number"
  return undefined
}
