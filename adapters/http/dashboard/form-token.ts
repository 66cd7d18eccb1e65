import { constantTimeEqualBytes, hmacSha256 } from "../../../core/signing/hmac.js"

// The CSRF token of every dashboard form: an HMAC of what the visitor's session is bound to (the kit
// session's id, the platform's user, or a pre-sign-in cookie), so a page on another site cannot know
// it and no token needs storing. Any of the keys is accepted, so forms survive a master key rotation.

/** The hidden input's name on every state-changing form. */
export const FORM_TOKEN_FIELD = "csrf_token"

export const formToken = (key: Uint8Array, boundTo: string): string =>
  Buffer.from(hmacSha256(key, boundTo)).toString("base64url")

export const formTokenValid = (keys: ReadonlyArray<Uint8Array>, boundTo: string, token: string | undefined): boolean => {
  if (token === undefined || token.length === 0 || token.length > 100) return false
  const presented = Uint8Array.from(Buffer.from(token, "base64url"))
  return keys.some((key) => constantTimeEqualBytes(hmacSha256(key, boundTo), presented))
}
