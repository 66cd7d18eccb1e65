import type { Environment } from "../shared/environment.js"
import { verifyStandardWebhook } from "../signing/standard-webhook-signature.js"

// The form of a secret a Standard Webhooks library takes: a `whsec_` secret as issued, the client secret `whsec_` and its base64.
export { standardWebhookSecret } from "../signing/standard-webhook-signature.js"
import { verifyWebhookSignature } from "../signing/webhook-signature.js"
import { ACCOUNT_EVENT_TYPES } from "./event-types.js"

/**
 * Payment events (spec 6.2), subscription events (`subscription.*`, `invoice.created`) and account
 * events (`payout.*`, `dispute.*`, `balance.*`: a webhook endpoint's) are signed with the webhook
 * secret, refund events (6.3) with the client (API) secret.
 */
export type WebhookKind = "payment" | "refund" | "subscription" | "account"

const ACCOUNT_FAMILIES = new Set(ACCOUNT_EVENT_TYPES.map((type) => type.slice(0, type.indexOf(".") + 1)))

export type WebhookCheck =
  | { readonly valid: true; readonly kind: WebhookKind }
  | {
    readonly valid: false
    readonly reason: "missing_signature" | "malformed_body" | "bad_signature" | "stale_timestamp" | "environment_mismatch"
  }

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Which secret signed a delivery, read from its `event` (or, failing that, its `status`). Only the
 * choice of key rests on this unverified text: the signature check that follows still decides.
 */
export const webhookKindOf = (rawBody: string | Uint8Array): WebhookKind | undefined => {
  try {
    const parsed: unknown = JSON.parse(typeof rawBody === "string" ? rawBody : utf8.decode(rawBody))
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined
    const { event, status } = parsed as { readonly event?: unknown; readonly status?: unknown }
    if (typeof event === "string" && ACCOUNT_FAMILIES.has(event.slice(0, event.indexOf(".") + 1))) return "account"
    if (event === "payment.refunded" || status === "refunded") return "refund"
    return typeof event === "string" && (event.startsWith("subscription.") || event.startsWith("invoice.")) ? "subscription" : "payment"
  } catch {
    return undefined
  }
}

/** The Standard Webhooks headers of a delivery, and the receiver's clock to judge their timestamp by. */
export interface StandardWebhookHeaders {
  readonly id: string | undefined
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  /** Now, in Unix seconds, on the receiver's clock. */
  readonly nowSeconds: number
  /** How far the timestamp may be from now; five minutes by default. */
  readonly toleranceSeconds?: number
}

/**
 * For merchants receiving webhooks, either form. With the Standard Webhooks headers (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`) it checks those: the timestamp within the tolerance, so
 * a captured delivery cannot be replayed later, and the signature over id, timestamp and body. Else
 * it checks the contract's `X-Signature` (hex HMAC-SHA256 of the raw body, with or without
 * `sha256=`). Either way the key is the secret that signs the delivery's kind (for a refund event's
 * Standard form, the webhook secret too), compared in constant time, and, when `expectedEnvironment`
 * is given, `X-Environment` must match it, so a sandbox event can never be taken for a production
 * one. Pass the body exactly as received, before any JSON parsing (a merchant on the `php` JSON style
 * receives PHP's spelling, signed as sent), and both secrets of the environment: one webhook endpoint
 * receives payment and refund events.
 */
export const verifyWebhook = (input: {
  readonly webhookSecret: string
  readonly clientSecret: string
  readonly rawBody: string | Uint8Array
  readonly signature: string | undefined
  readonly standard?: StandardWebhookHeaders
  readonly environmentHeader?: string | undefined
  readonly expectedEnvironment?: Environment
}): WebhookCheck => {
  const standard = input.standard?.signature === undefined || input.standard.signature === "" ? undefined : input.standard
  if (standard === undefined && (input.signature === undefined || input.signature === "")) return { valid: false, reason: "missing_signature" }
  const kind = webhookKindOf(input.rawBody)
  if (kind === undefined) return { valid: false, reason: "malformed_body" }
  const secret = kind === "refund" ? input.clientSecret : input.webhookSecret
  if (standard !== undefined) {
    // A refund event's Standard form is signed with the webhook secret too, so either secret may verify it.
    const standardSecrets = kind === "refund" ? [input.clientSecret, input.webhookSecret] : [secret]
    const checks = standardSecrets.map((key) => verifyStandardWebhook({ ...standard, secret: key, rawBody: input.rawBody }))
    const check = checks.includes("valid") ? "valid" : checks[0]!
    if (check !== "valid") return { valid: false, reason: check === "stale_timestamp" ? "stale_timestamp" : check === "missing_headers" ? "missing_signature" : "bad_signature" }
  } else if (!verifyWebhookSignature(secret, input.rawBody, input.signature)) {
    return { valid: false, reason: "bad_signature" }
  }
  if (input.expectedEnvironment !== undefined && input.environmentHeader !== input.expectedEnvironment) {
    return { valid: false, reason: "environment_mismatch" }
  }
  return { valid: true, kind }
}
