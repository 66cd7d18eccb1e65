import { constantTimeEqualBytes, hmacSha256 } from "./hmac.js"

/**
 * Signed, time-limited checkout link tokens: `<base64url payload>.<base64url MAC>`.
 *
 * Payload bytes: version (1 byte, 0x01) | expiry in Unix seconds (8 bytes, big-endian) | trxId (UTF-8).
 * MAC: full 32-byte HMAC-SHA256 of the payload bytes, keyed with a key derived from the caller's
 * key and a fixed label. The derivation gives domain separation: the same master secret can sign
 * requests or webhooks elsewhere without any of those MACs ever being accepted as a token.
 *
 * The token is URL-safe as-is (base64url has no padding and only `A-Z a-z 0-9 - _`; the dot is
 * unreserved). It is not encrypted: the transaction id is readable, only tampering is detected.
 */

const VERSION = 1
const MAC_KEY_LABEL = "merchant-payments/checkout-token/v1"
const HEADER_BYTES = 1 + 8
const MAC_BYTES = 32

/** Tokens longer than this are refused before any decoding or hashing. */
export const MAX_CHECKOUT_TOKEN_LENGTH = 512

/** Longest transaction id that can be issued, in UTF-8 bytes, so every token fits the limit above. */
export const MAX_CHECKOUT_TRX_ID_BYTES = 256

export type CheckoutTokenCheck =
  | { readonly _tag: "Valid"; readonly trxId: string; readonly expiresAtSeconds: number }
  | { readonly _tag: "Invalid" }
  | { readonly _tag: "Expired"; readonly trxId: string; readonly expiresAtSeconds: number }

const utf8Encoder = new TextEncoder()
// fatal: a payload that is not valid UTF-8 was not issued here and must be Invalid, not decoded lossily.
const utf8Decoder = new TextDecoder("utf-8", { fatal: true })

const macKey = (key: string | Uint8Array): Uint8Array => hmacSha256(key, MAC_KEY_LABEL)

const toBase64Url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")

const BASE64URL = /^[A-Za-z0-9_-]+$/

/**
 * Strict base64url decoding. Buffer's decoder skips bad characters and ignores stray trailing
 * bits, so re-encoding and comparing is what guarantees one spelling per token.
 */
const fromBase64Url = (text: string): Uint8Array | undefined => {
  if (!BASE64URL.test(text)) return undefined
  const bytes = Buffer.from(text, "base64url")
  return bytes.toString("base64url") === text ? Uint8Array.from(bytes) : undefined
}

/**
 * Issues a token for `trxId` that stops being valid at `expiresAtSeconds` (Unix seconds).
 * Throws RangeError for inputs no caller should pass (empty or oversized trxId, negative or
 * non-integer expiry): those are programming errors, not user input.
 */
export const issueCheckoutToken = (input: {
  readonly key: Uint8Array | string
  readonly trxId: string
  readonly expiresAtSeconds: number
}): string => {
  const id = utf8Encoder.encode(input.trxId)
  if (id.length === 0 || id.length > MAX_CHECKOUT_TRX_ID_BYTES) {
    throw new RangeError(`checkout token trxId must be 1-${MAX_CHECKOUT_TRX_ID_BYTES} UTF-8 bytes`)
  }
  if (!Number.isSafeInteger(input.expiresAtSeconds) || input.expiresAtSeconds < 0) {
    throw new RangeError("checkout token expiresAtSeconds must be a non-negative safe integer")
  }
  const payload = new Uint8Array(HEADER_BYTES + id.length)
  const view = new DataView(payload.buffer)
  view.setUint8(0, VERSION)
  view.setBigUint64(1, BigInt(input.expiresAtSeconds))
  payload.set(id, HEADER_BYTES)
  return `${toBase64Url(payload)}.${toBase64Url(hmacSha256(macKey(input.key), payload))}`
}

const INVALID: CheckoutTokenCheck = { _tag: "Invalid" }

/**
 * Checks a token. Authenticity is established first, so Expired is only ever reported for a token
 * this key issued; everything malformed, forged or tampered is Invalid. Never throws.
 * A token is valid while `nowSeconds < expiresAtSeconds`: the expiry instant itself is expired.
 */
export const verifyCheckoutToken = (input: {
  readonly key: Uint8Array | string
  readonly token: string
  readonly nowSeconds: number
}): CheckoutTokenCheck => {
  if (input.token.length > MAX_CHECKOUT_TOKEN_LENGTH) return INVALID
  const parts = input.token.split(".")
  if (parts.length !== 2) return INVALID
  const payload = fromBase64Url(parts[0]!)
  const mac = fromBase64Url(parts[1]!)
  if (payload === undefined || mac === undefined) return INVALID
  if (payload.length <= HEADER_BYTES || payload[0] !== VERSION || mac.length !== MAC_BYTES) return INVALID
  if (!constantTimeEqualBytes(mac, hmacSha256(macKey(input.key), payload))) return INVALID

  // Authentic from here on; the checks below only guard against a key that signed something odd.
  const expiry = new DataView(payload.buffer, payload.byteOffset, payload.length).getBigUint64(1)
  if (expiry > BigInt(Number.MAX_SAFE_INTEGER)) return INVALID
  let trxId: string
  try {
    trxId = utf8Decoder.decode(payload.subarray(HEADER_BYTES))
  } catch {
    return INVALID
  }
  const expiresAtSeconds = Number(expiry)
  return input.nowSeconds < expiresAtSeconds
    ? { _tag: "Valid", trxId, expiresAtSeconds }
    : { _tag: "Expired", trxId, expiresAtSeconds }
}
