import { makeStripeCheckoutPlugin } from "../../adapters/gateways/stripe-checkout/index.js"
import type { PluginEntry } from "../../core/payments/gateway-plugin-registry.js"
import { ConfigProblem, type HostConfig, readHostConfig } from "../standalone/host-config.js"
import { loadPluginModules } from "../standalone/plugin-modules.js"
import type { MerchantPaymentsOptions } from "./options.js"

/** The keys a host runs with: from the environment, or (standalone quickstart) kept beside the SQLite file. */
export interface HostKeys {
  readonly masterKey: string | Uint8Array
  readonly adminToken: string | undefined
}

/**
 * The standalone host's settings as embedding options: the one translation, so a variable means the
 * same in both. The host ships Stripe Checkout beside the sandbox; modules named by GATEWAY_PLUGINS follow.
 */
export const optionsFromHostConfig = (config: HostConfig, keys: HostKeys, plugins: ReadonlyArray<PluginEntry>): MerchantPaymentsOptions => ({
  database: config.store,
  masterKey: keys.masterKey,
  ...(keys.adminToken !== undefined ? { adminToken: keys.adminToken } : {}),
  baseUrl: config.baseUrl,
  basePath: config.basePath,
  plugins: [{ plugin: makeStripeCheckoutPlugin(), source: "the host's built-in plugins" }, ...plugins],
  settings: {
    ...(config.signatureToleranceSeconds !== undefined ? { signatureToleranceSeconds: config.signatureToleranceSeconds } : {}),
    ...(config.rateLimitPerMinute !== undefined ? { rateLimitPerMinute: config.rateLimitPerMinute } : {})
  },
  webhooks: config.webhooks,
  scheduler: config.scheduler,
  cryptoCurrencies: config.cryptoCurrencies,
  checkoutLifetimeMinutes: config.checkoutLifetimeSeconds / 60,
  clock: config.clock,
  ...(config.clockStartMillis !== undefined ? { clockStart: config.clockStartMillis } : {}),
  ...(config.pluginCallTimeoutMillis !== undefined ? { pluginCallTimeoutMillis: config.pluginCallTimeoutMillis } : {}),
  logging: config.logging
})

/**
 * `createMerchantPayments(await configFromEnv(process.env))`: the variables the README documents for
 * the standalone host (DATABASE_URL, MASTER_KEY, ADMIN_TOKEN, BASE_URL, BASE_PATH, GATEWAY_PLUGINS...).
 * An embedding app must name its MASTER_KEY: only the standalone quickstart invents one.
 */
export const configFromEnv = async (env: NodeJS.ProcessEnv, options: { readonly cwd?: string } = {}): Promise<MerchantPaymentsOptions> => {
  const config = readHostConfig(env)
  if (config.masterKey === undefined) throw new ConfigProblem("MASTER_KEY is required: 32 bytes as 64 hex digits or base64")
  const plugins = await loadPluginModules(config.gatewayPlugins, options.cwd ?? process.cwd())
  return optionsFromHostConfig(config, { masterKey: config.masterKey, adminToken: config.adminToken }, plugins)
}
