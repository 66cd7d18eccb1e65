import * as Context from "effect/Context"
import { isForbiddenAddress } from "./address-policy.js"
import { bareAddress, parseAddress } from "./ip-address.js"

/**
 * Whether webhooks may reach loopback and private networks. Off unless the operator says so
 * (development and tests): a webhook URL is merchant input, so the safe answer is the default.
 */
export class WebhookTargets extends Context.Reference<WebhookTargets>()("merchant-payments/WebhookTargets", {
  defaultValue: () => ({ allowPrivateTargets: false as boolean })
}) {}

// RFC 6761: every name under .localhost is the local host, whatever a resolver says.
const isLocalhostName = (hostname: string): boolean => {
  const name = hostname.toLowerCase().replace(/\.$/, "")
  return name === "localhost" || name.endsWith(".localhost")
}

/** Why a URL's scheme or userinfo rules it out as a webhook target, whatever its host. */
export const schemeRefusal = (url: URL): string | undefined => {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `unsupported scheme ${url.protocol}`
  // Credentials would be sent in clear to whoever the URL names.
  return url.username !== "" || url.password !== "" ? "credentials in URL" : undefined
}

/** Why a host (a URL's hostname, brackets allowed) is refused without a lookup: a literal address or a localhost name. */
export const hostRefusal = (hostname: string, options: { readonly allowPrivateTargets: boolean }): string | undefined => {
  if (options.allowPrivateTargets) return undefined
  const bare = bareAddress(hostname)
  if (parseAddress(bare) !== undefined) return isForbiddenAddress(bare)
  return isLocalhostName(bare) ? "loopback" : undefined
}

/**
 * Why a webhook URL will be refused whatever DNS answers, or undefined when only a lookup can tell.
 * The one rule for both the request path (initiate answers 422 at once) and delivery (checked
 * again there before any lookup, then every resolved address is checked too).
 */
export const refusalBeforeLookup = (url: URL, options: { readonly allowPrivateTargets: boolean }): string | undefined =>
  schemeRefusal(url) ?? hostRefusal(url.hostname, options)
