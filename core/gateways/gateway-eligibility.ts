import type { Environment } from "../shared/environment.js"
import type { GatewayId } from "../shared/ids.js"
import type { Gateway } from "./gateway.js"

/**
 * Which gateways a payment may offer on checkout. Pure: the caller loads the gateways and the
 * merchant's selection, so the same rules serve initiate, the checkout page and tests.
 */

export interface EligibilityInput {
  readonly gateways: ReadonlyArray<Gateway>
  /** The merchant's picked gateway ids; empty means no restriction. */
  readonly selection: ReadonlyArray<GatewayId>
  /** The payment's currency code, compared exactly. */
  readonly currency: string
}

/** Manual gateways need an operator, so hosted checkout never offers them; nor an inactive one. */
export const offeredOnCheckout = (gateway: Gateway): boolean => gateway.active && gateway.type === "automatic"

/**
 * Active automatic gateways of exactly the payment's currency, limited to the merchant's selection
 * when it has one.
 */
export const eligibleGateways = ({ currency, gateways, selection }: EligibilityInput): ReadonlyArray<Gateway> => {
  const selected = new Set<GatewayId>(selection)
  return gateways.filter((gateway) =>
    (selected.size === 0 || selected.has(gateway.id)) &&
    offeredOnCheckout(gateway) &&
    gateway.currency === currency
  )
}

/**
 * The gateways whose plugin takes payments in the environment. One that cannot (a simulator in
 * production, a plugin no longer installed) could only fail on the page, so it is never offered.
 */
export const servedIn = (
  environment: Environment,
  gateways: ReadonlyArray<Gateway>,
  plugins: ReadonlyArray<{ readonly id: string; readonly environments: ReadonlyArray<Environment> }>
): ReadonlyArray<Gateway> => {
  const serving = new Set(plugins.filter((plugin) => plugin.environments.includes(environment)).map((plugin) => plugin.id))
  return gateways.filter((gateway) => serving.has(gateway.plugin))
}

/**
 * Keeps the gateways whose name or code contains any keyword. A filter over its input, so keywords
 * from the merchant's request can narrow what the operator allowed but never add to it.
 */
export const narrowByKeywords = (gateways: ReadonlyArray<Gateway>, keywords: ReadonlyArray<string>): ReadonlyArray<Gateway> => {
  const wanted = keywords.map((keyword) => keyword.toLowerCase()).filter((keyword) => keyword !== "")
  if (wanted.length === 0) return gateways
  return gateways.filter((gateway) => {
    const name = gateway.name.toLowerCase()
    const code = gateway.code.toLowerCase()
    return wanted.some((keyword) => name.includes(keyword) || code.includes(keyword))
  })
}

/** Keeps the gateways whose code is one of `codes` exactly; no codes keeps them all. */
export const narrowByCodes = (gateways: ReadonlyArray<Gateway>, codes: ReadonlyArray<string>): ReadonlyArray<Gateway> =>
  codes.length === 0 ? gateways : gateways.filter((gateway) => codes.includes(gateway.code))
