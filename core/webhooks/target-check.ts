import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** What a lookup found of a webhook URL's host: why delivery would refuse it, and whether it is private. */
export interface TargetVerdict {
  /** Why delivery will refuse the URL (scheme, credentials, a forbidden address, a name that does not resolve). */
  readonly refusal?: string
  /** It reaches loopback or a private network: allowed only where the operator allows private targets. */
  readonly privateTarget: boolean
}

/**
 * Checks a webhook URL with the delivery guard's own rules, DNS included, before a long-lived
 * ipn_url (a subscription's) is stored: refused now, it cannot fail silently for months.
 */
export class WebhookTargetCheck extends Context.Tag("merchant-payments/WebhookTargetCheck")<WebhookTargetCheck, {
  readonly check: (url: URL) => Effect.Effect<TargetVerdict>
}>() {}
