import { randomBytes } from "node:crypto"
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import type { LogFormat } from "../../adapters/logging/log-line.js"
import type { LogLevelName } from "../../adapters/logging/logger-layer.js"
import { makeCurrencyCatalog } from "../../core/money/currencies.js"
import type { GatewayPluginDefinition } from "../../core/gateways/gateway-plugin.js"
import type { PluginEntry } from "../../core/gateways/gateway-plugin-registry.js"
import { defaultSiteSettings, type SiteSettings } from "../../core/settings/site-settings.js"
import { fromIsoString } from "../../core/shared/instant.js"
import { makeManualClock, type ManualClock } from "../../core/shared/manual-clock.js"
import { parseMasterKey } from "../../core/signing/secret-box.js"
import { DEFAULT_BATCH_SIZE } from "../../core/subscriptions/scheduler.js"
import { defaultWebhookConfig, type KitConfig, type StoreConfig, type WebhookConfig } from "../kit-layer.js"
import { checkOptions, problem } from "./option-checks.js"
import { type TracingOptions, tracingOf } from "./tracing-options.js"
import type { TracingConfig } from "../../adapters/tracing/tracing-config.js"
import type { PlatformSignIn } from "../../adapters/http/dashboard/dashboard-settings.js"
import { trustedProxiesOf } from "../../adapters/http/request/client-address.js"

export { MerchantPaymentsConfigError } from "./option-checks.js"

/** What a platform passes to `createMerchantPayments`: everything else has a working default. */
export interface MerchantPaymentsOptions {
  /** `sqlite:./data/payments.db`, `postgres://...`, a store config, or an @effect/sql client Layer the app already has. */
  readonly database: string | StoreConfig | Layer.Layer<SqlClient.SqlClient, unknown>
  /** 32 bytes: 64 hex digits or base64, or the bytes themselves. Every host of one store uses the same. */
  readonly masterKey: string | Uint8Array
  /**
   * During a master key rotation, the key the store was sealed under before (same forms as
   * masterKey): secrets and checkout links under it still open; nothing new is sealed with it.
   */
  readonly previousMasterKey?: string | Uint8Array
  /** The admin API's bearer token; without one the admin HTTP API refuses everyone (`payments.admin` still works). */
  readonly adminToken?: string
  /** The app's public origin, e.g. `https://shop.example`; links are baseUrl + basePath + path. */
  readonly baseUrl: string
  /** Where the kit is mounted in the app, e.g. `/payments` (default: the root). */
  readonly basePath?: string
  /** Gateway plugins beside the built-in sandbox simulator. */
  readonly plugins?: ReadonlyArray<GatewayPluginDefinition | PluginEntry>
  readonly settings?: Partial<SiteSettings>
  readonly webhooks?: Partial<WebhookConfig>
  /** `manual`: business time stands still until the admin clock API moves it (demos, tests). */
  readonly clock?: "real" | "manual"
  /** Where a manual clock starts: an ISO 8601 date-time or epoch milliseconds (default: now). */
  readonly clockStart?: string | number
  /** Webhook dispatcher, expiry sweep, status sync, refunds to the source, scheduler (default true). */
  readonly backgroundJobs?: boolean
  readonly scheduler?: { readonly enabled?: boolean; readonly batchSize?: number }
  /** Crypto currency codes to accept beside ISO 4217 (8 decimals). */
  readonly cryptoCurrencies?: ReadonlyArray<string>
  /** How long a checkout link lives (default 60). */
  readonly checkoutLifetimeMinutes?: number
  /** How long one gateway plugin call may take (default 10 s). */
  readonly pluginCallTimeoutMillis?: number
  /** How many days merchants' request logs are kept (default 14). */
  readonly requestLogRetentionDays?: number
  /**
   * `GET {basePath}/metrics` in the Prometheus text format, behind the admin token (default), readable
   * by anyone with `{ public: true }`, or off with `false`.
   */
  readonly metrics?: boolean | { readonly public?: boolean }
  /** Log lines (default: human lines at info on standard output); `false` logs errors only, to standard error. */
  readonly logging?: false | { readonly format?: LogFormat; readonly level?: LogLevelName; readonly write?: (line: string) => void }
  /** Traces over OpenTelemetry (default: off, no span made): an OTLP/HTTP endpoint, or the app's own TracerProvider. */
  readonly tracing?: TracingOptions
  /**
   * The merchant dashboard under `{basePath}/dashboard`. With `authenticate`, the platform's own session
   * says who the merchant is (null: nobody, sent to `signInUrl` with `next`, the dashboard page asked for, in its query); without it, the kit's merchant users sign in.
   */
  readonly dashboard?: { readonly authenticate?: PlatformSignIn["authenticate"]; readonly signInUrl?: string }
  /**
   * The reverse proxies in front of the kit, as addresses or CIDR blocks (`["10.0.0.0/8", "::1"]`): a
   * request from one of them is counted (rate limits, failed-authentication and sign-in throttles,
   * audit) under the client its `X-Forwarded-For` (else `Forwarded`) names. Default: none, so those
   * headers are ignored and the socket's peer is the client.
   */
  readonly trustedProxies?: ReadonlyArray<string>
  /**
   * Mail to customers and dashboard users. Production mail is sent only with `smtpUrl`
   * (`smtps://user:password@smtp.example.com:465`); without it none is queued. Sandbox mail is always
   * captured and shown on the dashboard's Sandbox mail page, and also delivered to `sandboxSmtpUrl`
   * (a mail catcher) when set, never to `smtpUrl`. `from`: the From header. `pollIntervalMillis`: how
   * often the outbox is looked at (default 5000).
   */
  readonly mail?: {
    readonly smtpUrl?: string | undefined
    readonly sandboxSmtpUrl?: string | undefined
    readonly from?: string | undefined
    readonly pollIntervalMillis?: number | undefined
  }
}

/** `/payments`: a leading slash, no trailing one, plain path segments; "" or "/" is the root. */
export const normalizeBasePath = (value: string | undefined, name = "basePath"): string => {
  if (value === undefined || value === "" || value === "/") return ""
  const trimmed = value.replace(/\/+$/, "")
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(trimmed)) {
    return problem(name, `${name} must look like "/payments" (letters, digits, . _ ~ - between slashes), got "${value}"`)
  }
  return trimmed
}

const publicOrigin = (value: string): string => {
  const trimmed = value.replace(/\/+$/, "")
  if (!URL.canParse(trimmed) || !/^https?:$/.test(new URL(trimmed).protocol)) {
    return problem("baseUrl", `baseUrl must be the app's public http(s) address, such as https://shop.example, got "${value}"`)
  }
  return trimmed
}

/** A database URL as a store: the one reading of `sqlite:` and `postgres://` addresses (DATABASE_URL too). */
export const storeOf = (database: string | StoreConfig | Layer.Layer<SqlClient.SqlClient, unknown>, name = "database"): StoreConfig => {
  if (Layer.isLayer(database)) return { kind: "sql-client", client: database as Layer.Layer<SqlClient.SqlClient, unknown> }
  if (typeof database !== "string") return database as StoreConfig
  if (/^postgres(ql)?:\/\//.test(database)) return { kind: "postgres", url: database }
  if (database.startsWith("sqlite:") && database.length > "sqlite:".length) return { kind: "sqlite", filename: database.slice("sqlite:".length) }
  return problem(name, `${name} must start with postgres://, postgresql:// or sqlite:, got "${database.replace(/\/\/.*@/, "//***@")}"`)
}

const masterKeyOf = (key: string | Uint8Array, name: "masterKey" | "previousMasterKey" = "masterKey"): Uint8Array => {
  if (typeof key !== "string") return key.length === 32 ? Uint8Array.from(key) : problem(name, `${name} must be 32 bytes`)
  return Either.getOrElse(parseMasterKey(key), (error) => problem(name, error.message.replace("MASTER_KEY", name)))
}

const clockOf = (options: MerchantPaymentsOptions): ManualClock | undefined => {
  if (options.clock !== "manual") {
    if (options.clockStart !== undefined) problem("clockStart", `clockStart is only read with clock: "manual"`)
    return undefined
  }
  if (options.clockStart === undefined) return makeManualClock(Date.now())
  if (typeof options.clockStart === "number") return makeManualClock(options.clockStart)
  const instant = fromIsoString(options.clockStart)
  return instant === undefined
    ? problem("clockStart", `clockStart must be an ISO 8601 date-time with an offset, got "${options.clockStart}"`)
    : makeManualClock(Number(instant / 1000n))
}

const trustedProxiesOption = (entries: ReadonlyArray<string>) =>
  Either.getOrElse(trustedProxiesOf(entries), (reason) => problem("trustedProxies", `trustedProxies: ${reason}`))

/** The kit as these options assemble it: the one translation the embedded kit and the standalone host share. */
export interface Assembly {
  readonly kit: KitConfig
  readonly basePath: string
  readonly manualClock: ManualClock | undefined
  /** Where spans go; undefined: tracing is off. */
  readonly tracing: TracingConfig | undefined
}

export const assemble = (options: MerchantPaymentsOptions): Assembly => {
  checkOptions(options)
  const basePath = normalizeBasePath(options.basePath)
  const publicBase = `${publicOrigin(options.baseUrl)}${basePath}`
  const currencies = makeCurrencyCatalog({ cryptoCodes: options.cryptoCurrencies ?? [] })
  if (Either.isLeft(currencies)) problem("cryptoCurrencies", `cryptoCurrencies: ${currencies.left.message}`)
  const manualClock = clockOf(options)
  const kit: KitConfig = {
    store: storeOf(options.database),
    masterKey: masterKeyOf(options.masterKey),
    ...(options.previousMasterKey !== undefined ? { previousMasterKey: masterKeyOf(options.previousMasterKey, "previousMasterKey") } : {}),
    // Without a token of its own, the admin HTTP API answers no one: the random one is never shown.
    adminToken: options.adminToken ?? `adm_${randomBytes(32).toString("base64url")}`,
    settings: { ...defaultSiteSettings, siteUrl: publicBase, ...options.settings },
    currencies: Either.getOrThrow(currencies),
    baseUrl: publicBase,
    checkoutLifetimeSeconds: (options.checkoutLifetimeMinutes ?? 60) * 60,
    webhooks: { ...defaultWebhookConfig, ...options.webhooks },
    ...(options.plugins !== undefined ? { plugins: options.plugins } : {}),
    ...(options.pluginCallTimeoutMillis !== undefined ? { pluginCallTimeoutMillis: options.pluginCallTimeoutMillis } : {}),
    ...(options.requestLogRetentionDays !== undefined ? { requestLogRetentionDays: options.requestLogRetentionDays } : {}),
    ...(options.backgroundJobs !== undefined ? { backgroundJobs: options.backgroundJobs } : {}),
    ...(options.scheduler !== undefined
      ? { scheduler: { enabled: options.scheduler.enabled ?? true, batchSize: options.scheduler.batchSize ?? DEFAULT_BATCH_SIZE } }
      : {}),
    ...(manualClock !== undefined ? { manualClock } : {}),
    metrics: options.metrics === false
      ? { enabled: false, public: false }
      : { enabled: true, public: typeof options.metrics === "object" && options.metrics.public === true },
    ...(options.dashboard?.authenticate !== undefined && options.dashboard.signInUrl !== undefined
      ? { dashboard: { platform: { authenticate: options.dashboard.authenticate, signInUrl: options.dashboard.signInUrl } } }
      : {}),
    ...(options.trustedProxies !== undefined ? { trustedProxies: trustedProxiesOption(options.trustedProxies) } : {}),
    ...(options.mail !== undefined
      ? {
        mail: {
          smtpUrl: options.mail.smtpUrl,
          sandboxSmtpUrl: options.mail.sandboxSmtpUrl,
          from: options.mail.from,
          ...(options.mail.pollIntervalMillis !== undefined ? { pollIntervalMillis: options.mail.pollIntervalMillis } : {})
        }
      }
      : {})
  }
  return { kit, basePath, manualClock, tracing: tracingOf(options.tracing) }
}
