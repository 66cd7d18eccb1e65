/**
 * The key a Standard Webhooks library takes from a secret. A `whsec_` secret is keyed as the
 * specification and its reference libraries key it: the part after the prefix, base64-decoded. Our
 * secrets are base62 (a subset of base64's alphabet) and, before 44-character secrets, 43 characters
 * long, a length strict decoders refuse for want of padding; the reference JavaScript and Ruby
 * libraries decode it anyway, dropping the bits that make no whole byte, and this decodes exactly as
 * they do. Any other secret (the client secret, which signs refund events) is keyed with its own UTF-8
 * bytes, and `standardWebhookSecret` gives it a `whsec_` form that decodes back to those bytes.
 */

const PREFIX = "whsec_"
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
const utf8 = new TextEncoder()

/**
 * Standard base64 as @stablelib/base64 (the npm reference library's decoder) reads it: `=` padding
 * optional, at most two, at least four characters in all; a last lone character (a length of 4n + 1)
 * is ignored, as are the bits past the last whole byte. Undefined where it refuses the text.
 */
export const decodeStandardBase64 = (text: string): Uint8Array | undefined => {
  if (text === "") return new Uint8Array(0)
  let padding = 0
  while (padding < text.length && text[text.length - 1 - padding] === "=") padding++
  if (text.length < 4 || padding > 2) return undefined
  const length = text.length - padding
  const read = length % 4 === 1 ? length - 1 : length
  const out = new Uint8Array(Math.floor((read * 6) / 8))
  let bits = 0
  let held = 0
  let at = 0
  for (let i = 0; i < read; i++) {
    const value = ALPHABET.indexOf(text[i]!)
    if (value < 0) return undefined
    bits = ((bits << 6) | value) & 0xffff
    held += 6
    if (held >= 8) {
      held -= 8
      out[at++] = (bits >>> held) & 0xff
    }
  }
  return out
}

/** The HMAC key of a secret's Standard Webhooks signatures (see above). */
export const standardWebhookKey = (secret: string): Uint8Array => {
  const decoded = secret.startsWith(PREFIX) ? decodeStandardBase64(secret.slice(PREFIX.length)) : undefined
  // A `whsec_` secret a reference library would refuse (or find empty) keeps its own bytes, as a secret without the prefix does.
  return decoded !== undefined && decoded.length > 0 ? decoded : utf8.encode(secret)
}

/**
 * The secret in the form to give a Standard Webhooks library (`new Webhook(...)`): a `whsec_` secret
 * as it is, any other as `whsec_` and the base64 of its bytes.
 */
export const standardWebhookSecret = (secret: string): string =>
  secret.startsWith(PREFIX) && decodeStandardBase64(secret.slice(PREFIX.length))?.length
    ? secret
    : `${PREFIX}${Buffer.from(utf8.encode(secret)).toString("base64")}`
