/**
 * Rules for a subscription's `metadata` (spec 4.5: a JSON object of at most 50 top-level entries that
 * must not hold secrets or card data). Metadata is echoed in every API answer and webhook, so what
 * looks like a card number or a secret is refused rather than stored and sent around.
 */
export const MAX_METADATA_ENTRIES = 50
export const MAX_METADATA_KEY_LENGTH = 40
/** The whole object as JSON text; keeps every response and webhook that echoes it small. */
export const MAX_METADATA_BYTES = 8 * 1024

const SECRET_KEY = /pass(word|wd)?|secret|token|cvv|cvc|card[_-]?(number|no)|\bpan\b|iban/i

// 13 to 19 digits, optionally grouped by spaces or dashes, as card numbers are written.
const CARD_CANDIDATE = /(?<!\d)(?:\d[ -]?){12,18}\d(?!\d)/g

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

/** Whether text holds what is probably a payment card number (a Luhn-valid 13 to 19 digit run). */
export const holdsCardNumber = (text: string): boolean =>
  Array.from(text.matchAll(CARD_CANDIDATE), (match) => match[0].replace(/[ -]/g, "")).some(passesLuhn)

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
