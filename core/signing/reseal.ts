import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { open, seal, SealedSecretUnreadable } from "./secret-box.js"

/**
 * The exact shape `seal` writes: `v1.` then a 12-byte IV (16 base64url characters), a 16-byte tag
 * (22) and the ciphertext. Strict, so text a merchant typed is never taken for a sealed value.
 */
const SEALED_SOURCE = "v1\\.[A-Za-z0-9_-]{16}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]*"

export const isSealedText = (value: string): boolean => new RegExp(`^${SEALED_SOURCE}$`).test(value)

/** Every sealed value inside a longer text (a JSON document, a whole row). */
export const sealedValuesIn = (text: string): ReadonlyArray<string> => text.match(new RegExp(SEALED_SOURCE, "g")) ?? []

export interface RotationKeys {
  /** The key everything is sealed under afterwards (MASTER_KEY). */
  readonly next: Uint8Array
  /** The key the store is sealed under before (MASTER_KEY_PREVIOUS). */
  readonly previous: Uint8Array
}

/**
 * One value under the next key: None when it already opens under it (a second run, or a host that
 * sealed it with the new key during the rotation), so a rerun changes nothing. A value that opens
 * under neither key is refused: re-sealing around it would hide that a key is missing.
 */
export const resealValue = (keys: RotationKeys, sealed: string): Either.Either<Option.Option<string>, SealedSecretUnreadable> => {
  if (Either.isRight(open(keys.next, sealed))) return Either.right(Option.none())
  return Either.match(open(keys.previous, sealed), {
    onLeft: () => Either.left(new SealedSecretUnreadable({ message: "a sealed value opens under neither MASTER_KEY nor MASTER_KEY_PREVIOUS" })),
    onRight: (plaintext) => Either.right(Option.some(seal(keys.next, plaintext)))
  })
}

export interface ResealedText {
  /** The text with its sealed values under the next key; None when none had to change. */
  readonly text: Option.Option<string>
  readonly resealed: number
  readonly alreadyCurrent: number
}

/**
 * Every sealed value inside a text (a gateway record's config as JSON) under the next key, the rest
 * left byte for byte: base64url needs no escaping in JSON, so a value is its own exact spelling there.
 */
export const resealWithin = (keys: RotationKeys, text: string): Either.Either<ResealedText, SealedSecretUnreadable> => {
  let resealed = 0
  let alreadyCurrent = 0
  let result = text
  for (const sealed of new Set(sealedValuesIn(text))) {
    const next = resealValue(keys, sealed)
    if (Either.isLeft(next)) return Either.left(next.left)
    if (Option.isNone(next.right)) {
      alreadyCurrent += 1
      continue
    }
    resealed += 1
    result = result.split(sealed).join(next.right.value)
  }
  return Either.right({ text: resealed > 0 ? Option.some(result) : Option.none(), resealed, alreadyCurrent })
}
