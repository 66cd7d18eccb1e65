import { makeStripeCheckoutPlugin } from "../../adapters/gateways/stripe-checkout/index.js"
import type { PluginEntry } from "../../core/gateways/gateway-plugin-registry.js"
import { type HostConfig, readHostConfig } from "./host-config.js"
import { resolveMasterKeys } from "./local-secrets.js"
import { loadPluginModules } from "./plugin-modules.js"
import type { MerchantPaymentsOptions } from "./options.js"

/** The keys a host runs with: from the environment, or (standalone quickstart) kept beside the SQLite file. */
export interface HostKeys {
  readonly masterKey: string | Uint8Array
  readonly previousMasterKey?: string | Uint8Array | undefined
  readonly adminToken: string | undefined
}

/**
 * The standalone host's settings as embedding options: the one translation, so a variable means the
 * same in both. The host ships Stripe Checkout beside the sandbox; modules named by GATEWAY_PLUGINS follow.
 */
export const optionsFromHostConfig = (config: HostConfig, keys: HostKeys, plugins: ReadonlyArray<PluginEntry>): MerchantPaymentsOptions => ({
  database: config.store,
  masterKey: keys.masterKey,
  ...(keys.previousMasterKey !== undefined ? { previousMasterKey: keys.previousMasterKey } : {}),
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
  ...(config.requestLogRetentionDays !== undefined ? { requestLogRetentionDays: config.requestLogRetentionDays } : {}),
  logging: config.logging,
  metrics: config.metrics.enabled && { public: config.metrics.public },
  ...(config.tracing !== undefined ? { tracing: config.tracing } : {}),
  ...(config.trustedProxies.length > 0 ? { trustedProxies: config.trustedProxies } : {}),
  mail: config.mail
})

/**
 * `createMerchantPayments(await configFromEnv(process.env))`: the variables the README documents for
 * the standalone host (DATABASE_URL, MASTER_KEY, ADMIN_TOKEN, BASE_URL, BASE_PATH, GATEWAY_PLUGINS...).
 *
 * Async, so it must be awaited: the gateway plugin modules GATEWAY_PLUGINS names are loaded with
 * `import()`, which only exists as a Promise. MASTER_KEY_PREVIOUS, during a master key rotation, is
 * opened with and never sealed with. Without MASTER_KEY, a SQLite store reads the key kept
 * beside its database file, or creates it there on the first start, as the standalone host does; with
 * PostgreSQL every host must share one key, so MASTER_KEY is required. ADMIN_TOKEN is read, never
 * invented: without it the admin HTTP API answers no one (`payments.admin` still works).
 */
export const configFromEnv = async (env: NodeJS.ProcessEnv, options: { readonly cwd?: string } = {}): Promise<MerchantPaymentsOptions> => {
  const config = readHostConfig(env)
  const keys = resolveMasterKeys(config)
  const plugins = await loadPluginModules(config.gatewayPlugins, options.cwd ?? process.cwd())
  return optionsFromHostConfig(config, { ...keys, adminToken: config.adminToken }, plugins)
}
