import { sha256Hex } from "../signing/hmac.js"

/** Longest Idempotency-Key accepted (spec 4.5, 8). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255

/** A completed request is replayed for this long (spec 4.5). */
export const REPLAY_WINDOW_SECONDS = 24 * 60 * 60

/** What makes two requests "identical": method, path with query, and the exact body bytes. */
export const fingerprint = (method: string, pathWithQuery: string, body: Uint8Array): string =>
  sha256Hex(new TextEncoder().encode(`${method.toUpperCase()} ${pathWithQuery}\n${sha256Hex(body)}`))

/** Only answers below 500 are kept: a server failure is not an answer, so a retry runs again. */
export const isReplayable = (status: number): boolean => status < 500
