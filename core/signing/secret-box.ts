import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from "node:crypto"
import * as Context from "effect/Context"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

/**
 * Client and webhook secrets are stored sealed with AES-256-GCM under the operator's master key,
 * so a copy of the database alone reveals no secret. Sealed text: `v1.<iv>.<tag>.<ciphertext>`,
 * each part base64url. GCM authenticates, so a tampered or foreign value fails to open.
 */
const VERSION = "v1"
const KEY_BYTES = 32
const IV_BYTES = 12

export class InvalidMasterKey extends Schema.TaggedError<InvalidMasterKey>()("InvalidMasterKey", {
  message: Schema.String
}) {}

export class SealedSecretUnreadable extends Schema.TaggedError<SealedSecretUnreadable>()("SealedSecretUnreadable", {
  message: Schema.String
}) {}

/**
 * The master key as configured: 32 bytes written as 64 hex digits or as base64/base64url.
 * Anything else is refused at startup rather than silently stretched into a weak key.
 */
export const parseMasterKey = (text: string): Either.Either<Uint8Array, InvalidMasterKey> => {
  const trimmed = text.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
    ? Buffer.from(trimmed.replace(/-/g, "+").replace(/_/g, "/"), "base64")
    : undefined
  return bytes !== undefined && bytes.length === KEY_BYTES
    ? Either.right(new Uint8Array(bytes))
    : Either.left(new InvalidMasterKey({ message: "MASTER_KEY must be 32 bytes written as 64 hex digits or 43/44 base64 characters" }))
}

/** A fresh random master key in the hex form parseMasterKey reads. */
export const generateMasterKey = (): string => randomBytes(KEY_BYTES).toString("hex")

export const seal = (key: Uint8Array, plaintext: string): string => {
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv("aes-256-gcm", key, iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".")
}

export const open = (key: Uint8Array, sealed: string): Either.Either<string, SealedSecretUnreadable> => {
  const parts = sealed.split(".")
  if (parts.length !== 4 || parts[0] !== VERSION) {
    return Either.left(new SealedSecretUnreadable({ message: "sealed secret has an unknown format" }))
  }
  try {
    const [iv, tag, ciphertext] = parts.slice(1).map((part) => Buffer.from(part, "base64url"))
    const decipher = createDecipheriv("aes-256-gcm", key, iv!)
    decipher.setAuthTag(tag!)
    return Either.right(Buffer.concat([decipher.update(ciphertext!), decipher.final()]).toString("utf8"))
  } catch {
    // Wrong master key or altered text: GCM's tag check fails. The reason is not echoed: it helps no one.
    return Either.left(new SealedSecretUnreadable({ message: "sealed secret could not be opened with this master key" }))
  }
}

/**
 * Opens with each key in turn: during a master key rotation a host holds the new key and the one
 * the store may still be sealed under, so it reads both while the command re-seals.
 */
export const openWithAny = (keys: ReadonlyArray<Uint8Array>, sealed: string): Either.Either<string, SealedSecretUnreadable> => {
  let result: Either.Either<string, SealedSecretUnreadable> = Either.left(new SealedSecretUnreadable({ message: "no master key to open with" }))
  for (const key of keys) {
    result = open(key, sealed)
    if (Either.isRight(result)) return result
  }
  return result
}

/**
 * A keyed digest of `text` under a key derived from `masterKey` (HKDF, so the digest key is never the
 * sealing key): for values kept only to be compared, such as a request's fingerprint, whose input
 * may hold an IBAN or a card-like number a plain hash would let anyone with the database guess.
 */
export const keyedDigest = (digestKey: Uint8Array, text: string): string =>
  createHmac("sha256", digestKey).update(text, "utf8").digest("hex")

/** The digest key of a master key: derived once per host start, as the sealing key is read once. */
export const digestKeyOf = (masterKey: Uint8Array): Uint8Array =>
  new Uint8Array(hkdfSync("sha256", masterKey, new Uint8Array(0), "merchant-payments digest v1", KEY_BYTES))

/** The sealing service, keyed once from configuration. */
export class SecretBox extends Context.Tag("merchant-payments/SecretBox")<SecretBox, {
  readonly seal: (plaintext: string) => string
  readonly open: (sealed: string) => Either.Either<string, SealedSecretUnreadable>
  /**
   * `text`'s keyed digest under each master key held, the current one first: the first is the one to
   * store; the others still match what was stored before a rotation.
   */
  readonly digests: (text: string) => ReadonlyArray<string>
}>() {}

/** Seals under `masterKey` only; opens under it, then under `previousKey` (MASTER_KEY_PREVIOUS) if given. */
export const secretBoxLayer = (masterKey: Uint8Array, previousKey?: Uint8Array) => {
  const keys = previousKey === undefined ? [masterKey] : [masterKey, previousKey]
  const digestKeys = keys.map(digestKeyOf)
  return Layer.succeed(SecretBox, SecretBox.of({
    seal: (plaintext) => seal(masterKey, plaintext),
    open: (sealed) => openWithAny(keys, sealed),
    digests: (text) => digestKeys.map((key) => keyedDigest(key, text))
  }))
}
