import { Effect } from "effect"
import { WebhookTargetCheck } from "./target-check.js"
import { refusalBeforeLookup, WebhookTargets } from "./target-rule.js"

/*
 * The contract's two rules for a merchant's `ipn_url`, in one place, each giving the message a
 * merchant reads or undefined when the URL passes. The use cases enforce them; the HTTP edge asks
 * the same functions when a body is refused anyway, so every field's problem is told at once.
 */

const invalid = (ipnUrl: string) => (URL.canParse(ipnUrl) ? undefined : "The ipn url field must be a valid URL.")

/**
 * A payment's (spec 4.1: a URL): refused when delivery would certainly refuse it (scheme,
 * credentials, a private literal address, a localhost name). Names are not resolved, so initiate
 * stays free of DNS; delivery checks every address a name resolves to.
 */
export const paymentIpnUrlRefusal = (ipnUrl: string): Effect.Effect<string | undefined> =>
  Effect.map(WebhookTargets, (targets) => {
    const malformed = invalid(ipnUrl)
    if (malformed !== undefined) return malformed
    const refusal = refusalBeforeLookup(new URL(ipnUrl), targets)
    return refusal === undefined ? undefined : `The ipn url field must be a public http or https address; refused: ${refusal}.`
  })

/**
 * A subscription's (spec 4.5: HTTPS, resolving to public addresses only): stored for months, so the
 * delivery guard checks it now, DNS included. Plain http passes only for a private target the
 * operator allows (a local receiver).
 */
export const subscriptionIpnUrlRefusal = (ipnUrl: string): Effect.Effect<string | undefined, never, WebhookTargetCheck> =>
  Effect.gen(function*() {
    const malformed = invalid(ipnUrl)
    if (malformed !== undefined) return malformed
    const url = new URL(ipnUrl)
    const verdict = yield* (yield* WebhookTargetCheck).check(url)
    if (verdict.refusal !== undefined) return `The ipn url field must be an HTTPS address that resolves to a public address; refused: ${verdict.refusal}.`
    return url.protocol !== "https:" && !verdict.privateTarget ? "The ipn url field must be an HTTPS address." : undefined
  })
