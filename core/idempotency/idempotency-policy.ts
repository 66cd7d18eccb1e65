import * as Effect from "effect/Effect"
import { sha256Hex } from "../signing/hmac.js"
import { SecretBox } from "../signing/secret-box.js"

/** Longest Idempotency-Key accepted (spec 4.5, 8). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** A completed request is replayed for this long (spec 4.5). */
export const REPLAY_WINDOW_SECONDS = 24 * 60 * 60

/** A request's fingerprint to store, and the others that still name the same request. */
export interface Fingerprints {
  readonly fingerprint: string
  readonly alsoMatches: ReadonlyArray<string>
}

/**
 * What makes two requests under one key "identical": the operation they ask for and the exact bytes
 * of their body. The caller names both: an edge by what its requests carry (the HTTP edge by method
 * and target), a use case by its own name and a canonical text of its input.
 *
 * The stored fingerprint is keyed with the master key: a body may carry an IBAN, whose plain hash
 * anyone holding the database could find by trying the few billion account numbers of one bank.
 * A record written under the previous master key (during a rotation), or unkeyed before fingerprints
 * were keyed, still matches within its replay window, so neither an upgrade nor a rotation turns a
 * client's honest retry into a 409.
 */
export const fingerprintsOf = (operation: string, body: Uint8Array) =>
  Effect.map(SecretBox, (box): Fingerprints => {
    const text = `${operation}\n${sha256Hex(body)}`
    const [fingerprint = "", ...previous] = box.digests(text)
    return { fingerprint, alsoMatches: [...previous, sha256Hex(new TextEncoder().encode(text))] }
  })
