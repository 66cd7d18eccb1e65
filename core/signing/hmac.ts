import { createHash, createHmac, timingSafeEqual } from "node:crypto"

/**
 * HMAC-SHA256 primitives shared by request signatures, webhook signatures and checkout tokens.
 *
 * Strings are always encoded as UTF-8 so a key or payload means the same bytes on every side.
 */

/** The raw 32-byte HMAC-SHA256 of `data` keyed with `key`. */
export const hmacSha256 = (key: string | Uint8Array, data: string | Uint8Array): Uint8Array =>
  createHmac("sha256", key).update(data).digest()

/** The HMAC-SHA256 of `data` keyed with `key`, as lower-case hex (64 characters). */
export const hmacSha256Hex = (key: string | Uint8Array, data: string | Uint8Array): string =>
  createHmac("sha256", key).update(data).digest("hex")

// Buffer.from(x, "hex") silently stops at the first bad character, so validate before decoding
// or "abZZ" would quietly compare as "ab".
const HEX = /^(?:[0-9a-fA-F]{2})*$/

/** Decodes hex (either case) to bytes; undefined for odd length or any non-hex character. */
export const decodeHex = (hex: string): Uint8Array | undefined =>
  HEX.test(hex) ? Uint8Array.from(Buffer.from(hex, "hex")) : undefined

/**
 * True when both byte arrays are identical.
 * Different lengths return false at once (the length of a MAC is public); equal lengths are
 * compared in constant time so the position of the first differing byte never leaks.
 */
export const constantTimeEqualBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && timingSafeEqual(a, b)

/**
 * True when both strings are valid hex for the same bytes (hex case is ignored).
 * Never throws: bad hex or different lengths are simply false.
 */
export const constantTimeEqualHex = (a: string, b: string): boolean => {
  const left = decodeHex(a)
  const right = decodeHex(b)
  return left !== undefined && right !== undefined && constantTimeEqualBytes(left, right)
}

/** Plain SHA-256 as lower-case hex, for fingerprints and lookups (not for secrets). */
export const sha256Hex = (data: string | Uint8Array): string => createHash("sha256").update(data).digest("hex")

/** Plain SHA-256 as bytes. */
export const sha256 = (data: string | Uint8Array): Uint8Array => createHash("sha256").update(data).digest()
