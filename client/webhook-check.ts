import type { Environment } from "../core/shared/environment.js"
import { verifyWebhook, type WebhookCheck } from "../core/webhooks/verify-webhook.js"

/**
 * The client's view of a webhook delivery. The rule itself (which secret signs which event kind,
 * constant-time comparison, the environment check) is the kit's own `verifyWebhook`: the receiving
 * side must never drift from the sending side.
 */

/** A header as node:http gives it (`req.headers[name]`) or fetch does (`headers.get(name)`, null when absent). */
export type HeaderValue = string | ReadonlyArray<string> | null | undefined

export interface WebhookDelivery {
  /** The body exactly as received: a string or the raw bytes. */
  readonly rawBody: string | Uint8Array
  /** The `X-Signature` header (the contract's form: the body alone is signed). */
  readonly signature?: HeaderValue
  /**
   * The Standard Webhooks headers. When `webhook-signature` is given they are checked instead of
   * `X-Signature`: the timestamp must be within `toleranceSeconds` (default 300) of this machine's clock.
   */
  readonly webhookId?: HeaderValue
  readonly webhookTimestamp?: HeaderValue
  readonly webhookSignature?: HeaderValue
  readonly toleranceSeconds?: number
  /** The `X-Environment` header. */
  readonly environmentHeader: HeaderValue
  /** The environment whose events are accepted; default the client's own. */
  readonly expectedEnvironment?: Environment
}

export type MerchantWebhookCheck = WebhookCheck

/** One value, or none: a header sent twice is ambiguous, and is read as absent. */
const single = (value: HeaderValue): string | undefined => {
  if (typeof value === "string") return value
  return value !== null && value !== undefined && value.length === 1 ? value[0] : undefined
}

export const verifyWithSecrets = (
  secrets: { readonly webhookSecret: string; readonly clientSecret: string; readonly defaultEnvironment: Environment },
  delivery: WebhookDelivery
): MerchantWebhookCheck =>
  verifyWebhook({
    webhookSecret: secrets.webhookSecret,
    clientSecret: secrets.clientSecret,
    rawBody: delivery.rawBody,
    signature: single(delivery.signature),
    standard: {
      id: single(delivery.webhookId),
      timestamp: single(delivery.webhookTimestamp),
      signature: single(delivery.webhookSignature),
      nowSeconds: Math.floor(Date.now() / 1000),
      ...(delivery.toleranceSeconds !== undefined ? { toleranceSeconds: delivery.toleranceSeconds } : {})
    },
    environmentHeader: single(delivery.environmentHeader),
    expectedEnvironment: delivery.expectedEnvironment ?? secrets.defaultEnvironment
  })
