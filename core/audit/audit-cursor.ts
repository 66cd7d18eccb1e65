import { Instant } from "../shared/instant.js"
import type { AuditPosition } from "./audit-log.js"

/**
 * A page's `next_cursor`: the last entry shown, as (created_at, id), opaque to callers (base64url)
 * so its form can change without breaking them, as the events API's.
 */
export const encodeAuditCursor = (position: AuditPosition): string =>
  btoa(`${position.createdAt}.${position.id}`).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")

const decodeBase64Url = (text: string): string | undefined => {
  try {
    return atob(text.replaceAll("-", "+").replaceAll("_", "/"))
  } catch {
    return undefined
  }
}

/** The position, or undefined when the text is not a cursor this kit gave. */
export const decodeAuditCursor = (text: string): AuditPosition | undefined => {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(text)) return undefined
  const match = /^(\d{1,19})\.([1-9]\d{0,14})$/.exec(decodeBase64Url(text) ?? "")
  if (match === null) return undefined
  return { createdAt: Instant(BigInt(match[1]!)), id: Number(match[2]!) }
}
