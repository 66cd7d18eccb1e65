import { sha256Hex } from "../signing/hmac.js"

/** Longest Idempotency-Key accepted (spec 4.5, 8). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** A completed request is replayed for this long (spec 4.5). */
export const REPLAY_WINDOW_SECONDS = 24 * 60 * 60

/**
 * What makes two requests under one key "identical": the operation they ask for and the exact bytes
 * of their body. The caller names both: an edge by what its requests carry (the HTTP edge by method
 * and target), a use case by its own name and a canonical text of its input.
 */
export const fingerprint = (operation: string, body: Uint8Array): string =>
  sha256Hex(new TextEncoder().encode(`${operation}\n${sha256Hex(body)}`))
