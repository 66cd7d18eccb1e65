import { hmacSha256, hmacSha256Hex } from "./hmac.js"
import { signatureMatches } from "./signature-header.js"

/**
 * Webhook signatures: the hex HMAC-SHA256 of the raw delivery body, keyed with the merchant's
 * webhook secret. Only the body is signed (no timestamp or URL), as the API spec defines it.
 */

/** The signature for a webhook body: bare lower-case hex, no `sha256=` prefix. */
export const signWebhook = (secret: string | Uint8Array, rawBody: string | Uint8Array): string =>
  hmacSha256Hex(secret, rawBody)

/**
 * True when `header` signs `rawBody`: with or without a `sha256=` prefix, any hex case.
 * Missing, empty, truncated or non-hex values are false; never throws.
 */
export const verifyWebhookSignature = (
  secret: string | Uint8Array,
  rawBody: string | Uint8Array,
  header: string | undefined
): boolean => signatureMatches(header, hmacSha256(secret, rawBody))
