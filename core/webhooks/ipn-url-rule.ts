import * as Effect from "effect/Effect"
import { WebhookTargetCheck } from "./target-check.js"
import { refusalBeforeLookup, WebhookTargets } from "./target-rule.js"

/*
 * The contract's two rules for a merchant's `ipn_url`, in one place, each giving the message a
 * merchant reads or undefined when the URL passes. The use cases enforce them; the HTTP edge asks
 * the same functions when a body is refused anyway, so every field's problem is told at once.
 */

/**
 * A payment's or subscription's ipn_url that names no target: their events are sent to no ipn_url
 * (only to the merchant's subscribed webhook endpoints). Only the kit itself makes such objects (a
 * sandbox trigger's); the API's body rule refuses an empty URL.
 */
export const NO_IPN_TARGET = ""

const invalid = (ipnUrl: string, field = "ipn url") => (URL.canParse(ipnUrl) ? undefined : `The ${field} field must be a valid URL.`)

/**
 * Any webhook URL a merchant gives for events that are sent soon (a payment's, a test event's):
 * refused when delivery would certainly refuse it (scheme, credentials, a private literal address,
 * a localhost name). Names are not resolved, so the request stays free of DNS; delivery checks every
 * address a name resolves to. `field` is the form's or body's name for the URL in the message.
 */
export const webhookUrlRefusal = (url: string, field: string): Effect.Effect<string | undefined> =>
  Effect.map(WebhookTargets, (targets) => {
    const malformed = invalid(url, field)
    if (malformed !== undefined) return malformed
    const refusal = refusalBeforeLookup(new URL(url), targets)
    return refusal === undefined ? undefined : `The ${field} field must be a public http or https address; refused: ${refusal}.`
  })

/** A payment's (spec 4.1: a URL), under the rule of every URL whose events are sent soon. */
export const paymentIpnUrlRefusal = (ipnUrl: string): Effect.Effect<string | undefined> => webhookUrlRefusal(ipnUrl, "ipn url")

/**
 * Any webhook URL kept for months (a subscription's ipn_url, a webhook endpoint's url): HTTPS,
 * resolving to public addresses only, checked now with the delivery guard, DNS included, so it cannot
 * fail silently later. Plain http passes only for a private target the operator allows (a local receiver).
 */
export const storedWebhookUrlRefusal = (url: string, field: string): Effect.Effect<string | undefined, never, WebhookTargetCheck> =>
  Effect.gen(function*() {
    const malformed = invalid(url, field)
    if (malformed !== undefined) return malformed
    const parsed = new URL(url)
    const verdict = yield* (yield* WebhookTargetCheck).check(parsed)
    if (verdict.refusal !== undefined) return `The ${field} field must be an HTTPS address that resolves to a public address; refused: ${verdict.refusal}.`
    return parsed.protocol !== "https:" && !verdict.privateTarget ? `The ${field} field must be an HTTPS address.` : undefined
  })

/** A subscription's (spec 4.5: HTTPS, resolving to public addresses only), under the rule of every URL kept for months. */
export const subscriptionIpnUrlRefusal = (ipnUrl: string): Effect.Effect<string | undefined, never, WebhookTargetCheck> =>
  storedWebhookUrlRefusal(ipnUrl, "ipn url")
