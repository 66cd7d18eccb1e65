/**
 * What a kept request or response body may show: a secret's value never, a card or account number
 * never whole, and at most MAX_LOGGED_BODY_BYTES of it. One function for both bodies, so what a
 * merchant's log shows follows one rule.
 */

/** Each body is kept up to 8 KiB (UTF-8) after redaction; the rest is cut and said to be. */
export const MAX_LOGGED_BODY_BYTES = 8 * 1024

/** Bodies above this are not parsed to be redacted (the merchant API's bodies are far smaller). */
const MAX_PARSED_BYTES = 1024 * 1024

export const REDACTED = "[REDACTED]"

/** Keys whose values are secrets, compared without case, `_` or `-`: `client_secret`, `X-Api-Key`, `newPassword`. */
const SECRET_KEY_PARTS = ["secret", "password", "passwd", "apikey", "token", "authorization", "iban", "cardnumber", "cvc", "cvv", "accountnumber"]

export const isSecretKey = (key: string): boolean => {
  const plain = key.toLowerCase().replace(/[-_]/g, "")
  return SECRET_KEY_PARTS.some((part) => plain.includes(part))
}

/**
 * 12 to 19 digits in a row, single spaces or dashes allowed between them as cards are written, or
 * an IBAN (two letters, two check digits, up to four letters of a bank code, then 10 or more digits,
 * written in groups of four or not): kept as their last 4 characters. A run joined to letters, digits,
 * `_` or `-` on either side is part of an id (a uuid, a reference), not a number, and is left alone.
 */
const NUMBER_RUN = /(?<![\dA-Za-z_-])(?:[A-Z]{2}\d{2}[A-Z]{0,4}\d{10,30}|[A-Z]{2}\d{2}(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?|\d(?:[ -]?\d){11,18})(?![\dA-Za-z_-])/g

export const maskNumbers = (text: string): string =>
  text.replace(NUMBER_RUN, (run) => {
    const kept = run.replace(/[^0-9A-Za-z]/g, "")
    return `${"*".repeat(kept.length - 4)}${kept.slice(-4)}`
  })

/** JSON's tokens, in order: strings, numbers, literals, punctuation and white space. */
const JSON_TOKEN = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\]:,]|\s+/g

/**
 * Valid JSON redacted token by token, so every other byte (an amount's exact digits, the order and
 * spacing of keys) stays as sent: a secret key's whole value, whatever its shape, becomes
 * "[REDACTED]"; strings and numbers have their number runs masked.
 */
const redactJson = (text: string): string => {
  let out = ""
  // Per open container: is it an object, and does its next string name a key?
  const containers: Array<{ object: boolean; expectKey: boolean }> = []
  // While > 0, inside a secret value being skipped, at this depth of nesting.
  let skipping = 0
  let secretNext = false
  for (const [token] of text.matchAll(JSON_TOKEN)) {
    const top = containers[containers.length - 1]
    if (skipping > 0) {
      if (token === "{" || token === "[") skipping++
      else if (token === "}" || token === "]") skipping--
      if (skipping === 0) containers.pop()
      continue
    }
    if (/^\s/.test(token)) {
      out += token
    } else if (token === "{" || token === "[") {
      if (secretNext) {
        secretNext = false
        out += JSON.stringify(REDACTED)
        containers.push({ object: false, expectKey: false })
        skipping = 1
        continue
      }
      containers.push({ object: token === "{", expectKey: token === "{" })
      out += token
    } else if (token === "}" || token === "]") {
      containers.pop()
      out += token
    } else if (token === ",") {
      if (top?.object === true) top.expectKey = true
      out += token
    } else if (token === ":") {
      out += token
    } else if (top?.object === true && top.expectKey) {
      top.expectKey = false
      secretNext = isSecretKey(JSON.parse(token) as string)
      out += token
    } else if (secretNext) {
      secretNext = false
      out += JSON.stringify(REDACTED)
    } else if (token.startsWith("\"")) {
      out += maskNumbers(token)
    } else {
      const masked = maskNumbers(token)
      out += masked === token ? token : JSON.stringify(masked)
    }
  }
  return out
}

/**
 * `key=value` pairs in a body that is not JSON (a form, a query): secret keys' values hidden. A key
 * starts only where a word starts, so a long run with no `=` is read once, not once per character.
 */
const redactPairs = (text: string): string =>
  text.replace(/(?<![A-Za-z0-9_.-])([A-Za-z0-9_.-]+)=([^&\s]*)/g, (pair, key: string) => (isSecretKey(key) ? `${key}=${REDACTED}` : pair))

/**
 * Text that is not JSON is cut before it is read (it may be the largest body accepted), back to the
 * end of a word, so no number is cut short of the length that would have masked it.
 */
const cutText = (text: string, maxBytes: number): string => {
  if (text.length <= maxBytes) return text
  const head = text.slice(0, maxBytes)
  const wordEnd = head.search(/[A-Za-z0-9_.-]*$/)
  return wordEnd > 0 ? head.slice(0, wordEnd) : ""
}

const encoder = new TextEncoder()

/** At most `maxBytes` of UTF-8, never cutting a character in two, with a note of what was cut. */
export const bounded = (text: string, maxBytes: number = MAX_LOGGED_BODY_BYTES): string => {
  const bytes = encoder.encode(text)
  if (bytes.length <= maxBytes) return text
  const note = `…[truncated ${bytes.length} bytes to ${maxBytes}]`
  const room = Math.max(0, maxBytes - encoder.encode(note).length)
  let end = room
  // A UTF-8 continuation byte (10xxxxxx) is never the start of a character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--
  return new TextDecoder().decode(bytes.subarray(0, end)) + note
}

/**
 * Whether redaction could change a text: it holds a secret key part (compared as isSecretKey
 * compares, over the whole text), a JSON escape (a key may be spelt with one), twelve digits in a row
 * as a card may be written, or what starts an IBAN (two capitals and two digits). None of these in
 * the whole text means none in any key, string or number of it, so it is kept as sent: most answers
 * (site information, a payment's status) hold none, and walking them token by token was the largest
 * part of keeping a call.
 */
const SECRET_PART = new RegExp(SECRET_KEY_PARTS.join("|"))
const MAYBE_NUMBER_RUN = /\\|\d(?:[ -]?\d){11}|[A-Z]{2}\d{2}/
const mayNeedRedaction = (text: string): boolean =>
  MAYBE_NUMBER_RUN.test(text) || SECRET_PART.test(text.toLowerCase().replace(/[-_]/g, ""))

/**
 * A body as its log keeps it: JSON with every secret key's value replaced and number runs masked,
 * every other byte as sent; other text with `key=value` secrets and number runs masked; then bounded.
 * Empty stays empty (null): a GET has no body.
 */
export const redactBody = (text: string | null | undefined, maxBytes: number = MAX_LOGGED_BODY_BYTES): string | null => {
  if (text === null || text === undefined || text.length === 0) return null
  if (text.length > MAX_PARSED_BYTES) return `[body of ${encoder.encode(text).length} bytes not kept]`
  try {
    JSON.parse(text)
  } catch {
    const cut = cutText(text, maxBytes)
    const kept = maskNumbers(redactPairs(cut))
    return cut.length === text.length ? bounded(kept, maxBytes) : bounded(`${kept}…[truncated ${encoder.encode(text).length} bytes]`, maxBytes)
  }
  return bounded(mayNeedRedaction(text) ? redactJson(text) : text, maxBytes)
}
