import { Instant } from "../shared/instant.js"

/**
 * Where the next page of events starts: the last event shown, as (created_at, id), the keyset the
 * list is ordered by. Opaque to callers (base64url), so its form can change without breaking them.
 */
export interface EventCursor {
  readonly createdAt: Instant
  readonly id: string
}

// Event ids are printable ASCII, so the text is Latin-1 and btoa/atob (web globals) carry it whole.
export const encodeEventCursor = (cursor: EventCursor): string =>
  btoa(`${cursor.createdAt}.${cursor.id}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")

const decodeBase64Url = (text: string): string | undefined => {
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/"))
  } catch {
    return undefined
  }
}

/** The cursor, or undefined when the text is not one this kit gave. */
export const decodeEventCursor = (text: string): EventCursor | undefined => {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(text)) return undefined
  const match = /^(\d{1,19})\.([\x21-\x7e]{1,100})$/.exec(decodeBase64Url(text) ?? "")
  if (match === null) return undefined
  return { createdAt: Instant(BigInt(match[1]!)), id: match[2]! }
}
