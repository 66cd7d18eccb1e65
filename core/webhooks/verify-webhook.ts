import type { Environment } from "../merchants/environment.js"
import { verifyWebhookSignature } from "../signing/webhook-signature.js"

export type WebhookCheck =
  | { readonly valid: true }
  | { readonly valid: false; readonly reason: "missing_signature" | "bad_signature" | "environment_mismatch" }

/**
 * For merchants receiving webhooks: checks `X-Signature` (hex HMAC-SHA256 of the raw body, with or
 * without `sha256=`, compared in constant time) against the secret, and, when `expectedEnvironment`
 * is given, that the delivery's `X-Environment` matches it, so a sandbox event can never be taken for
 * a production one. Pass the body exactly as received, before any JSON parsing.
 */
export const verifyWebhook = (input: {
  readonly secret: string
  readonly rawBody: string | Uint8Array
  readonly signature: string | undefined
  readonly environmentHeader?: string | undefined
  readonly expectedEnvironment?: Environment
}): WebhookCheck => {
  if (input.signature === undefined || input.signature === "") return { valid: false, reason: "missing_signature" }
  if (!verifyWebhookSignature(input.secret, input.rawBody, input.signature)) return { valid: false, reason: "bad_signature" }
  if (input.expectedEnvironment !== undefined && input.environmentHeader !== input.expectedEnvironment) {
    return { valid: false, reason: "environment_mismatch" }
  }
  return { valid: true }
}
