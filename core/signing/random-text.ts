import { randomBytes } from "node:crypto"

/**
 * Uniformly random strings over a fixed alphabet, drawn from node:crypto (never Math.random).
 */

export const BASE62_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** Crockford base32: upper case, no I, L, O or U, so ids survive being read aloud or retyped. */
export const CROCKFORD_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/**
 * `length` characters drawn uniformly from `alphabet` (at most 256 characters).
 * Bytes at or above the largest multiple of the alphabet size are discarded rather than reduced
 * modulo, which would make the first characters of the alphabet more likely (modulo bias).
 */
export const randomString = (alphabet: string, length: number): string => {
  const size = alphabet.length
  const limit = 256 - (256 % size)
  let out = ""
  while (out.length < length) {
    // Draw a little extra so a rejected byte rarely costs another call.
    for (const byte of randomBytes(length - out.length + 8)) {
      if (byte < limit) out += alphabet[byte % size]
      if (out.length === length) break
    }
  }
  return out
}

/** Encodes a non-negative integer in Crockford base32, left-padded with zeros to `width`. */
export const encodeCrockford = (value: bigint, width: number): string => {
  let out = ""
  let rest = value
  while (rest > 0n) {
    out = CROCKFORD_ALPHABET[Number(rest % 32n)] + out
    rest /= 32n
  }
  return out.padStart(width, "0")
}
