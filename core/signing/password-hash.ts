import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import * as Effect from "effect/Effect"

/**
 * Dashboard passwords, hashed with scrypt: memory-hard, so a stolen table costs an attacker memory as
 * well as time for every guess, and in node:crypto, so no native dependency is added.
 *
 * Stored as `scrypt$N$r$p$<salt>$<key>` (salt and key base64url): each hash names its own parameters,
 * so they can be raised later and older hashes still verify (and are re-hashed at the next sign-in,
 * needsRehash).
 *
 * N = 2^15, r = 8, p = 1 is 32 MiB and roughly 70-100 ms a hash on a server core: twice the scrypt
 * paper's cost for interactive logins, slow enough to make guessing dear, quick enough for a sign-in
 * (docs/decisions.md). The async scrypt runs on libuv's pool, so a sign-in never blocks the event loop.
 */
export const SCRYPT_COST = 2 ** 15
export const SCRYPT_BLOCK_SIZE = 8
export const SCRYPT_PARALLELISM = 1
const SALT_BYTES = 16
const KEY_BYTES = 32
// Node refuses scrypt above maxmem (32 MiB by default), and N=2^15,r=8 needs 32 MiB plus a little; the rest is room to raise them.
const MAX_MEMORY = 256 * 1024 * 1024

interface Parameters {
  readonly cost: number
  readonly blockSize: number
  readonly parallelism: number
}

const CURRENT: Parameters = { cost: SCRYPT_COST, blockSize: SCRYPT_BLOCK_SIZE, parallelism: SCRYPT_PARALLELISM }

// The same text typed on two devices can arrive composed or decomposed (é as one code point or two):
// both must be the same password.
const passwordBytes = (password: string): Uint8Array => Buffer.from(password.normalize("NFC"), "utf8")

const derive = (password: string, salt: Uint8Array, keyBytes: number, parameters: Parameters) =>
  Effect.async<Uint8Array>((resume) => {
    scrypt(passwordBytes(password), salt, keyBytes, {
      N: parameters.cost,
      r: parameters.blockSize,
      p: parameters.parallelism,
      maxmem: MAX_MEMORY
    }, (error, key) => resume(error === null ? Effect.succeed(new Uint8Array(key)) : Effect.die(error)))
  })

const encode = (parameters: Parameters, salt: Uint8Array, key: Uint8Array): string =>
  ["scrypt", parameters.cost, parameters.blockSize, parameters.parallelism, Buffer.from(salt).toString("base64url"), Buffer.from(key).toString("base64url")].join("$")

const BASE64URL = /^[A-Za-z0-9_-]+$/

/** The stored hash's parts, or undefined when it is not one this code wrote (never trusted to be sane). */
const decode = (stored: string) => {
  const parts = stored.split("$")
  if (parts.length !== 6 || parts[0] !== "scrypt") return undefined
  const [cost, blockSize, parallelism] = parts.slice(1, 4).map(Number) as [number, number, number]
  const [salt, key] = parts.slice(4) as [string, string]
  // Bounds keep a corrupted row from asking for gigabytes or hours.
  const sane = Number.isInteger(Math.log2(cost)) && cost >= 2 ** 10 && cost <= 2 ** 20 && Number.isInteger(blockSize) &&
    blockSize >= 1 && blockSize <= 32 && Number.isInteger(parallelism) && parallelism >= 1 && parallelism <= 16 &&
    BASE64URL.test(salt) && BASE64URL.test(key)
  if (!sane) return undefined
  const keyBytes = Buffer.from(key, "base64url")
  if (keyBytes.length < 16 || keyBytes.length > 64) return undefined
  return { parameters: { cost, blockSize, parallelism }, salt: Buffer.from(salt, "base64url"), key: new Uint8Array(keyBytes) }
}

/** A fresh salt and the current parameters. */
export const hashPassword = (password: string): Effect.Effect<string> =>
  Effect.suspend(() => {
    const salt = new Uint8Array(randomBytes(SALT_BYTES))
    return Effect.map(derive(password, salt, KEY_BYTES, CURRENT), (key) => encode(CURRENT, salt, key))
  })

/**
 * Whether a stored hash this code can read was made with other parameters (cost, block size,
 * parallelism, key length) than today's: the password it verifies should be hashed again.
 */
export const needsRehash = (stored: string): boolean => {
  const decoded = decode(stored)
  if (decoded === undefined) return false
  const { cost, blockSize, parallelism } = decoded.parameters
  return cost !== CURRENT.cost || blockSize !== CURRENT.blockSize || parallelism !== CURRENT.parallelism || decoded.key.length !== KEY_BYTES
}

/**
 * A hash in the current parameters that no password matches (its key is zeros, not a derived key):
 * verifying against it costs what a real verification costs, so an unknown account is not answered faster.
 */
export const UNMATCHABLE_HASH = encode(CURRENT, new Uint8Array(SALT_BYTES), new Uint8Array(KEY_BYTES))

/**
 * Whether `password` is the one `stored` was made from, compared in constant time. A stored value
 * this code cannot read is false, after the same work as a real verification.
 */
export const verifyPassword = (password: string, stored: string): Effect.Effect<boolean> =>
  Effect.suspend(() => {
    const decoded = decode(stored)
    const target = decoded ?? decode(UNMATCHABLE_HASH)!
    return Effect.map(derive(password, target.salt, target.key.length, target.parameters), (key) =>
      decoded !== undefined && timingSafeEqual(key, target.key))
  })
