import { Layer } from "effect"
import { AdminToken } from "../adapters/http/admin-endpoint.js"
import * as PostgresStorage from "../adapters/postgres/postgres-storage.js"
import * as SqliteStorage from "../adapters/sqlite/sqlite-storage.js"
import * as Authenticator from "../core/merchants/authenticator.js"
import type { CurrencyRegistry } from "../core/money/currencies.js"
import * as CurrencyCatalog from "../core/money/currency-catalog.js"
import * as RateLimiter from "../core/rate-limit/rate-limiter.js"
import type { SiteSettings } from "../core/settings/site-settings.js"
import * as SiteSettingsService from "../core/settings/site-settings-service.js"
import { secretBoxLayer } from "../core/signing/secret-box.js"
import { sandboxPlugin } from "../adapters/gateways/sandbox/index.js"
import * as CheckoutLinks from "../core/payments/checkout-links.js"
import type { GatewayPlugin } from "../core/payments/gateway-plugin.js"
import * as GatewayPluginRegistry from "../core/payments/gateway-plugin-registry.js"
import { layer as IdsLive } from "../core/signing/ids.js"

export type StoreConfig =
  | { readonly kind: "sqlite"; readonly filename: string }
  | { readonly kind: "postgres"; readonly url: string; readonly maxConnections?: number }

export interface KitConfig {
  readonly store: StoreConfig
  readonly masterKey: Uint8Array
  readonly adminToken: string
  readonly settings: SiteSettings
  readonly currencies: CurrencyRegistry
  /** The public address checkout links point at, without a trailing slash. */
  readonly baseUrl: string
  readonly checkoutLifetimeSeconds: number
  /** Gateway plugins beyond the built-in sandbox simulator. */
  readonly plugins?: ReadonlyArray<GatewayPlugin>
}

export const storageLayer = (store: StoreConfig) =>
  store.kind === "sqlite"
    ? SqliteStorage.layer({ filename: store.filename })
    : PostgresStorage.layer({ url: store.url, ...(store.maxConnections !== undefined ? { maxConnections: store.maxConnections } : {}) })

/**
 * Everything the HTTP app needs, over one store. The store is the outermost layer, so when a host
 * shuts down, requests in flight finish before the connection pool closes.
 */
export const kitLayer = (config: KitConfig) => {
  const services = Layer.mergeAll(Authenticator.layer(), RateLimiter.layer()).pipe(
    Layer.provideMerge(SiteSettingsService.layer(config.settings)),
    Layer.provideMerge(secretBoxLayer(config.masterKey))
  )
  return Layer.mergeAll(
    services,
    CurrencyCatalog.layer(config.currencies),
    Layer.succeed(AdminToken, config.adminToken),
    GatewayPluginRegistry.layer([sandboxPlugin(config.masterKey), ...(config.plugins ?? [])]),
    CheckoutLinks.layer({ key: config.masterKey, baseUrl: config.baseUrl, lifetimeSeconds: config.checkoutLifetimeSeconds }),
    IdsLive
  ).pipe(Layer.provideMerge(storageLayer(config.store)))
}
