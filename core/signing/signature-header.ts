import { constantTimeEqualBytes, decodeHex } from "./hmac.js"

/**
 * Parsing of the `sha256=<hex>` signature values used by both request and webhook signatures.
 *
 * Accepted forms: `sha256=<64 hex>` and bare `<64 hex>`, hex in either case. The `sha256=` label is
 * also matched case-insensitively (`SHA256=`): it carries no secret, and clients that upper-case
 * the whole value would otherwise fail for no security benefit. Nothing else is tolerated: no
 * surrounding whitespace (HTTP stacks already strip it), no other algorithm, no lists of values.
 */

const PREFIX = "sha256="

/** A SHA-256 MAC is 32 bytes, so its hex is exactly 64 characters. */
const MAC_HEX_LENGTH = 64

/** The 32 MAC bytes carried by a signature value, or undefined when the value is not well formed. */
export const parseSha256Signature = (value: string | undefined): Uint8Array | undefined => {
  if (value === undefined) return undefined
  const hex = value.slice(0, PREFIX.length).toLowerCase() === PREFIX ? value.slice(PREFIX.length) : value
  // Check the length before decoding so an attacker-sized value never reaches the hex parser.
  if (hex.length !== MAC_HEX_LENGTH) return undefined
  return decodeHex(hex)
}

/** True when `value` is a well-formed signature whose MAC equals `expected`, compared in constant time. */
export const signatureMatches = (value: string | undefined, expected: Uint8Array): boolean => {
  const provided = parseSha256Signature(value)
  return provided !== undefined && constantTimeEqualBytes(provided, expected)
}
