import { defaultCurrencyCatalog } from "../../core/money/currencies.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { defaultWebhookConfig, type KitConfig, type StoreConfig } from "../../hosts/kit-layer.js"

/**
 * The kit as the in-process suites assemble it: a fixed master key and admin token, ISO currencies,
 * a one-hour checkout and no background jobs unless a suite asks for them. Each suite names only
 * what it is about.
 */
export const testKitConfig = (store: StoreConfig, overrides: Partial<KitConfig> = {}): KitConfig => ({
  store,
  masterKey: new Uint8Array(32).fill(7),
  adminToken: "admin-token",
  settings: defaultSiteSettings,
  currencies: defaultCurrencyCatalog,
  baseUrl: "https://pay.example",
  checkoutLifetimeSeconds: 3600,
  webhooks: defaultWebhookConfig,
  backgroundJobs: false,
  ...overrides
})
