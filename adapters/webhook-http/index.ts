/** Outbound webhook delivery over HTTP(S): SSRF guard with DNS pinning, a total timeout, no redirects. */
export { isForbiddenAddress } from "../../core/webhooks/address-policy.js"
export { defaultUserAgent, type HttpWebhookSenderOptions, layer, make } from "./http-webhook-sender.js"
export { type ResolveAll, type ResolvedAddress } from "./pinned-lookup.js"
export { targetCheckLayer } from "./dns-target-check.js"
