import type Stripe from "stripe"
import type { Environment } from "../../../core/shared/environment.js"
import { isTestModeKey, type StripeCheckoutConfig } from "./stripe-checkout-config.js"

/**
 * stripe-node's own request timeout. The kit cuts every plugin call off sooner; this only bounds
 * how long an abandoned request keeps a socket after the kit has stopped waiting.
 */
const REQUEST_TIMEOUT_MILLIS = 30_000

let stripeModule: Promise<typeof Stripe> | undefined

/**
 * stripe-node, imported on first use: 23 MB that a host which never configures a Stripe gateway
 * (every embedding app that does not use it) never loads. A failed import is tried again next time.
 */
export const loadStripe = (): Promise<typeof Stripe> =>
  (stripeModule ??= import("stripe").then((loaded) => loaded.default, (error: unknown) => {
    stripeModule = undefined
    throw new Error(`the stripe-checkout plugin needs the "stripe" package (npm install stripe): ${error instanceof Error ? error.message : String(error)}`)
  }))

/** Clients kept per plugin instance; a few gateway records each, so a small bound is plenty. */
const MAX_CACHED_CLIENTS = 32

const connectionOf = (apiBase: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> => {
  if (apiBase === undefined) return {}
  const url = new URL(apiBase)
  const protocol = url.protocol === "http:" ? "http" : "https"
  return { host: url.hostname, port: url.port !== "" ? url.port : protocol === "http" ? "80" : "443", protocol }
}

/**
 * Sandbox money and real money never cross: a test key cannot charge a production payment and a
 * live key cannot be used for a sandbox one, whatever a gateway record was set up with.
 */
export const assertKeyServes = (config: StripeCheckoutConfig, environment: Environment): void => {
  const testKey = isTestModeKey(config.secret_key)
  if (environment === "production" && testKey) throw new Error("this gateway's secret_key is a Stripe test-mode key; production payments need a live key")
  if (environment === "sandbox" && !testKey) throw new Error("this gateway's secret_key is a Stripe live-mode key; sandbox payments need a test-mode key")
}

/** One stripe-node client per key and API base, built on first use. */
export const makeStripeClients = () => {
  const clients = new Map<string, Stripe>()
  return async (config: StripeCheckoutConfig): Promise<Stripe> => {
    const cacheKey = `${config.api_base ?? ""}\n${config.secret_key}`
    const cached = clients.get(cacheKey)
    if (cached !== undefined) return cached
    const StripeClient = await loadStripe()
    const client = new StripeClient(config.secret_key, {
      ...connectionOf(config.api_base),
      // The kit retries with the same idempotency key on its own schedule, under its own timeout.
      maxNetworkRetries: 0,
      timeout: REQUEST_TIMEOUT_MILLIS,
      telemetry: false,
      appInfo: { name: "merchant-payments stripe-checkout" }
    })
    if (clients.size >= MAX_CACHED_CLIENTS) clients.delete(clients.keys().next().value!)
    clients.set(cacheKey, client)
    return client
  }
}

/**
 * Stripe's own verification (t= and v1= of the Stripe-Signature header, HMAC-SHA256, tolerance in
 * seconds): it needs no API key or network, so stripe-node's static helper serves every record.
 */
export const verifiedStripeEvent = async (payload: Uint8Array, signatureHeader: string, webhookSecret: string, toleranceSeconds: number): Promise<Stripe.Event> =>
  (await loadStripe()).webhooks.constructEvent(payload, signatureHeader, webhookSecret, toleranceSeconds)
