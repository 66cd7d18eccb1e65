import { constantTimeEqualBytes, hmacSha256 } from "./hmac.js"
import { standardWebhookKey } from "./standard-webhook-key.js"

/**
 * Standard Webhooks signatures (the `webhook-id`, `webhook-timestamp` and `webhook-signature`
 * headers), sent beside the contract's `X-Signature`: they sign the event id and the attempt's time
 * with the body, so a captured delivery cannot be replayed past the receiver's tolerance. A secret is
 * keyed as Standard Webhooks libraries key it (`standardWebhookKey`), so the issued `whsec_` secret
 * is what a merchant gives `new Webhook(...)`, as it is.
 */

const utf8 = new TextEncoder()

/** The Standard Webhooks tolerance default: five minutes either side of the receiver's clock. */
export const STANDARD_TOLERANCE_SECONDS = 300

export { standardWebhookSecret } from "./standard-webhook-key.js"

const signedContent = (id: string, timestampSeconds: number, rawBody: string | Uint8Array): Uint8Array => {
  const body = typeof rawBody === "string" ? utf8.encode(rawBody) : rawBody
  const head = utf8.encode(`${id}.${timestampSeconds}.`)
  const content = new Uint8Array(head.length + body.length)
  content.set(head)
  content.set(body, head.length)
  return content
}

/** One `v1,<base64>` signature of a delivery attempt. */
export const signStandardWebhook = (secret: string, id: string, timestampSeconds: number, rawBody: string | Uint8Array): string =>
  `v1,${Buffer.from(hmacSha256(standardWebhookKey(secret), signedContent(id, timestampSeconds, rawBody))).toString("base64")}`

export type StandardWebhookCheck = "valid" | "missing_headers" | "stale_timestamp" | "bad_signature"

/**
 * Checks the three Standard Webhooks headers: the timestamp within `toleranceSeconds` of `nowSeconds`,
 * then any of the space-separated `v1,` signatures (several during a secret rotation) against the
 * secret, in constant time. Never throws.
 */
export const verifyStandardWebhook = (input: {
  readonly secret: string
  readonly rawBody: string | Uint8Array
  readonly id: string | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly nowSeconds: number
  readonly toleranceSeconds?: number
}): StandardWebhookCheck => {
  if (input.id === undefined || input.id === "" || input.timestamp === undefined || input.signature === undefined) return "missing_headers"
  if (!/^\d{1,12}$/.test(input.timestamp)) return "stale_timestamp"
  const timestamp = Number(input.timestamp)
  if (Math.abs(input.nowSeconds - timestamp) > (input.toleranceSeconds ?? STANDARD_TOLERANCE_SECONDS)) return "stale_timestamp"
  const expected = hmacSha256(standardWebhookKey(input.secret), signedContent(input.id, timestamp, input.rawBody))
  const matches = input.signature.split(" ").some((entry) => {
    if (!entry.startsWith("v1,")) return false
    const encoded = entry.slice(3)
    if (!/^[A-Za-z0-9+/]{43}=$/.test(encoded)) return false
    return constantTimeEqualBytes(Uint8Array.from(Buffer.from(encoded, "base64")), expected)
  })
  return matches ? "valid" : "bad_signature"
}
