import type * as SqlClient from "@effect/sql/SqlClient"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as WebhookHttp from "../adapters/webhook-http/index.js"
import * as ExpirySweeper from "../core/payments/expiry-sweeper.js"
import * as StatusSyncSweeper from "../core/payments/status-sync.js"
import * as GatewayRefundExecutor from "../core/refunds/gateway-refund-executor.js"
import * as IdempotencyRecordPurger from "../core/idempotency/record-purger.js"
import * as RetiredCredentialPurger from "../core/merchants/retired-credential-purger.js"
import * as DashboardPurger from "../core/merchant-users/dashboard-purger.js"
import * as EventLogPurger from "../core/webhooks/event-log-purger.js"
import * as RequestLogPurger from "../core/request-logs/request-log-purger.js"
import * as RequestLogWriter from "../core/request-logs/request-log-writer.js"
import { type ManualClock, ManualClockControl } from "../core/shared/manual-clock.js"
import * as AuthThrottle from "../core/rate-limit/auth-throttle.js"
import * as RealClock from "../core/shared/real-clock.js"
import * as Readiness from "../core/shared/readiness.js"
import * as EventStreamSlots from "../core/webhooks/event-stream-slots.js"
import { defaultDispatchPolicy, leaseSecondsFor, slowAfterMillisFor } from "../core/webhooks/dispatcher.js"
import * as WebhookDispatcher from "../core/webhooks/dispatcher.js"
import { AdminToken } from "../adapters/http/endpoint/admin-endpoint.js"
import { TrustedProxies } from "../adapters/http/request/client-address.js"
import * as DashboardSettings from "../adapters/http/dashboard/dashboard-settings.js"
import * as EventBodies from "../adapters/http/response/event-bodies.js"
import type { PlatformSignIn } from "../adapters/http/dashboard/dashboard-settings.js"
import { MetricsSettings } from "../adapters/http/request/request-metrics.js"
import * as MetricsExposition from "../adapters/metrics/prometheus-exposition.js"
import * as ProcessMetrics from "../adapters/metrics/process-metrics.js"
import * as ClientStorage from "../adapters/sql/client-storage.js"
import * as PdfInvoiceDocuments from "../adapters/documents/pdf-invoice-documents.js"
import * as Authenticator from "../core/merchants/authenticator.js"
import * as CurrencyCatalog from "../core/money/currency-catalog.js"
import * as RateLimiter from "../core/rate-limit/rate-limiter.js"
import type { SiteSettings } from "../core/settings/site-settings.js"
import * as SiteSettingsService from "../core/settings/site-settings-service.js"
import { secretBoxLayer } from "../core/signing/secret-box.js"
import { sandboxPlugin } from "../adapters/gateways/sandbox/index.js"
import * as CheckoutConfig from "../core/payments/checkout-config.js"
import * as CheckoutLinks from "../core/payments/checkout-links.js"
import type { GatewayPluginDefinition } from "../core/gateways/gateway-plugin.js"
import * as GatewayPluginRegistry from "../core/gateways/gateway-plugin-registry.js"
import { layer as IdsLive } from "../core/signing/random-ids.js"
import { WebhookTargets } from "../core/webhooks/target-rule.js"
import * as InvoiceSettlement from "../core/subscriptions/invoice-settlement.js"
import * as SavedMethods from "../core/subscriptions/saved-methods.js"
import * as SubscriptionScheduler from "../core/subscriptions/scheduler.js"
import * as MoneyOutScheduler from "../core/balances/money-out-scheduler.js"
import * as MailDispatcher from "../core/mail/mail-dispatcher.js"
import * as MailLayer from "../adapters/mail/mail-layer.js"
import * as MailRenderer from "../adapters/mail/mail-renderer.js"

export type StoreConfig =
  | { readonly kind: "sqlite"; readonly filename: string }
  /** `poolSize`: how many connections this host keeps to PostgreSQL (default 10). */
  | { readonly kind: "postgres"; readonly url: string; readonly poolSize?: number }
  /** An @effect/sql client the platform already runs (PgClient, SqliteClient...): the kit migrates and uses it. */
  | { readonly kind: "sql-client"; readonly client: Layer.Layer<SqlClient.SqlClient, unknown> }

export interface KitConfig {
  readonly store: StoreConfig
  readonly masterKey: Uint8Array
  /**
   * The key the store was sealed under before a rotation (MASTER_KEY_PREVIOUS): opened with, never
   * sealed or signed with, so hosts serve across `rotate-master-key`.
   */
  readonly previousMasterKey?: Uint8Array | undefined
  readonly adminToken: string
  readonly settings: SiteSettings
  readonly currencies: CurrencyCatalog.CurrencyCatalog
  /** The public address checkout links point at, without a trailing slash. */
  readonly baseUrl: string
  readonly checkoutLifetimeSeconds: number
  /**
   * Gateway plugins beyond the built-in sandbox simulator: plugin objects, or entries naming the
   * module each came from (the standalone host's GATEWAY_PLUGINS) so a refusal says which one.
   */
  readonly plugins?: ReadonlyArray<GatewayPluginRegistry.PluginEntry | GatewayPluginDefinition>
  /** Offer the built-in sandbox simulator (default true); a suite testing its own copy turns it off. */
  readonly builtInSandbox?: boolean
  /** How long one plugin call may take (default 10 s). */
  readonly pluginCallTimeoutMillis?: number
  readonly webhooks: WebhookConfig
  /** Run the webhook dispatcher and the checkout expiry sweeper in this process (default true). */
  readonly backgroundJobs?: boolean
  /** How often expired checkouts are swept to failed (default 15 s: within the minute promised). */
  readonly expirySweepIntervalMillis?: number
  /** How often pending payments whose gateway can be asked are looked at (default 15 s). */
  readonly statusSyncIntervalMillis?: number
  /** The subscription scheduler and, beside it, the money-out pass (reserve releases, automatic payouts): their minute loops (with the background jobs) and batch size. */
  readonly scheduler?: { readonly enabled: boolean; readonly batchSize: number; readonly intervalMillis?: number }
  /** Business time that moves only when told to (CLOCK=manual). */
  readonly manualClock?: ManualClock
  /** `/metrics` and what feeds it (default: on, behind the admin token). */
  readonly metrics?: MetricsConfig
  /** The merchant dashboard's sign-in: the platform's own (`authenticate`), else the kit's merchant users. */
  readonly dashboard?: { readonly platform?: PlatformSignIn | undefined }
  /** Proxies whose `Forwarded` / `X-Forwarded-For` name the client (default: none, the socket's peer is). */
  readonly trustedProxies?: TrustedProxies["Type"]
  /** Mail (SMTP_URL, SANDBOX_SMTP_URL, MAIL_FROM): production mail only with an SMTP URL; sandbox mail is captured for the dashboard. */
  readonly mail?: MailConfig
  /** How many days merchants' request logs are kept (REQUEST_LOG_RETENTION_DAYS, default 14). */
  readonly requestLogRetentionDays?: number
}

export interface MailConfig extends MailLayer.MailSettings {
  /** How often the outbox is looked at (default 5 s). */
  readonly pollIntervalMillis?: number
  /** Waits before each retry (default 1 min, 5 min, 30 min, 2 h, 6 h); 1 + their count is the number of attempts. */
  readonly retryDelaysMillis?: ReadonlyArray<number>
}

export interface MetricsConfig {
  readonly enabled: boolean
  /** Readable without the admin token. */
  readonly public: boolean
}

export interface WebhookConfig {
  readonly timeoutMs: number
  /** Waits before each retry; 1 + their count is the number of attempts. */
  readonly retryDelaysMillis: ReadonlyArray<number>
  /** Development and tests only: lets webhooks reach loopback and private addresses. */
  readonly allowPrivateTargets: boolean
  readonly pollIntervalMillis: number
  /** Pause a merchant's target after this long of failing every attempt; absent: never (the default). */
  readonly pauseAfterSeconds?: number
  /** Attempts this host sends at once in the fast lane (default 32). */
  readonly concurrency?: number
  /** Attempts this host sends at once in the slow lane, to targets whose last attempt was slow (default 8). */
  readonly slowLaneConcurrency?: number
  /** The share of each lane's slots one merchant may hold on this host, in percent (default 25). */
  readonly merchantSharePercent?: number
}

export const defaultWebhookConfig: WebhookConfig = {
  timeoutMs: 10_000,
  retryDelaysMillis: [60_000, 300_000],
  allowPrivateTargets: false,
  pollIntervalMillis: 1_000
}

/** The dispatcher and the expiry sweeper, on business time, sending through the guarded sender. */
const backgroundJobsLayer = (config: KitConfig) => {
  if (config.backgroundJobs === false) return Layer.empty
  const clock = config.manualClock?.clock
  return Layer.mergeAll(
    WebhookDispatcher.layer({
      policy: {
        ...defaultDispatchPolicy,
        retryDelaysMillis: config.webhooks.retryDelaysMillis,
        leaseSeconds: leaseSecondsFor(config.webhooks.timeoutMs),
        slowAfterMillis: slowAfterMillisFor(config.webhooks.timeoutMs),
        ...(config.webhooks.concurrency !== undefined ? { concurrency: config.webhooks.concurrency } : {}),
        ...(config.webhooks.slowLaneConcurrency !== undefined ? { slowLaneConcurrency: config.webhooks.slowLaneConcurrency } : {}),
        ...(config.webhooks.merchantSharePercent !== undefined ? { merchantSharePercent: config.webhooks.merchantSharePercent } : {}),
        ...(config.webhooks.pauseAfterSeconds !== undefined ? { pauseAfterSeconds: config.webhooks.pauseAfterSeconds } : {})
      },
      pollInterval: Duration.millis(config.webhooks.pollIntervalMillis),
      ...(clock !== undefined ? { clock } : {})
    }),
    ExpirySweeper.layer({
      interval: Duration.millis(config.expirySweepIntervalMillis ?? 15_000),
      ...(clock !== undefined ? { clock } : {})
    }),
    StatusSyncSweeper.layer({
      interval: Duration.millis(config.statusSyncIntervalMillis ?? 15_000),
      ...(clock !== undefined ? { clock } : {})
    }),
    GatewayRefundExecutor.layer({
      ...(config.pluginCallTimeoutMillis !== undefined ? { callTimeoutMillis: config.pluginCallTimeoutMillis } : {}),
      ...(clock !== undefined ? { clock } : {})
    }),
    IdempotencyRecordPurger.layer(),
    RetiredCredentialPurger.layer(),
    DashboardPurger.layer(clock !== undefined ? { clock } : {}),
    EventLogPurger.layer(clock !== undefined ? { clock } : {}),
    RequestLogPurger.layer({
      ...(config.requestLogRetentionDays !== undefined ? { retentionDays: config.requestLogRetentionDays } : {}),
      ...(clock !== undefined ? { clock } : {})
    }),
    MailDispatcher.layer({
      interval: Duration.millis(config.mail?.pollIntervalMillis ?? 5_000),
      ...(config.mail?.retryDelaysMillis !== undefined
        ? { policy: { ...MailDispatcher.defaultMailPolicy, retryDelaysMillis: config.mail.retryDelaysMillis } }
        : {}),
      ...(clock !== undefined ? { clock } : {})
    }),
    config.scheduler?.enabled === false
      ? Layer.empty
      : SubscriptionScheduler.loopLayer({
        interval: Duration.millis(config.scheduler?.intervalMillis ?? 60_000),
        ...(clock !== undefined ? { clock } : {})
      }),
    config.scheduler?.enabled === false
      ? Layer.empty
      : MoneyOutScheduler.loopLayer({
        interval: Duration.millis(config.scheduler?.intervalMillis ?? 60_000),
        ...(clock !== undefined ? { clock } : {})
      })
  ).pipe(Layer.provide(WebhookHttp.layer({ timeoutMs: config.webhooks.timeoutMs })))
}

/**
 * What `/metrics` reads. Off, nothing runs for it: no event-loop monitor, no request counting, and
 * the route answers 404 before it would ask these.
 */
const metricsLayer = (config: MetricsConfig = { enabled: true, public: false }) =>
  Layer.mergeAll(
    Layer.succeed(MetricsSettings, config),
    config.enabled ? MetricsExposition.layer : Layer.succeed(MetricsExposition.MetricsExposition, { render: Effect.succeed("") }),
    config.enabled ? ProcessMetrics.layer : Layer.succeed(ProcessMetrics.ProcessMetrics, { sample: Effect.void })
  )

/**
 * The store the config names, its driver loaded when the layer is built: a host on SQLite never loads
 * pg, one on PostgreSQL never loads better-sqlite3, and importing the kit loads neither.
 */
export const storageLayer = (store: StoreConfig) =>
  store.kind === "sqlite"
    ? Layer.unwrapEffect(Effect.map(Effect.promise(() => import("../adapters/sqlite/sqlite-storage.js")), (SqliteStorage) =>
      SqliteStorage.layer({ filename: store.filename })))
    : store.kind === "postgres"
    ? Layer.unwrapEffect(Effect.map(Effect.promise(() => import("../adapters/postgres/postgres-storage.js")), (PostgresStorage) =>
      PostgresStorage.layer({ url: store.url, ...(store.poolSize !== undefined ? { poolSize: store.poolSize } : {}) })))
    : ClientStorage.layer(store.client)

/**
 * Everything the HTTP app needs, over one store. The store is the outermost layer, so when a host
 * shuts down, requests in flight finish before the connection pool closes.
 */
export const kitLayer = (config: KitConfig) => {
  // The public address's path, as the dashboard reads it: a client that signed it behind a proxy that strips it is told so.
  const publicBasePath = new URL(config.baseUrl).pathname.replace(/\/+$/, "")
  const authenticator = Authenticator.layer(publicBasePath === "" ? {} : { publicBasePath })
  const services = Layer.mergeAll(authenticator, AuthThrottle.layer.pipe(Layer.provideMerge(RateLimiter.layer()))).pipe(
    Layer.provideMerge(SiteSettingsService.layer(config.settings)),
    Layer.provideMerge(secretBoxLayer(config.masterKey, config.previousMasterKey))
  )
  const base = Layer.mergeAll(
    services,
    config.manualClock === undefined ? Layer.empty : Layer.succeed(ManualClockControl, config.manualClock),
    CurrencyCatalog.layer(config.currencies),
    Layer.succeed(AdminToken, config.adminToken),
    config.trustedProxies === undefined ? Layer.empty : Layer.succeed(TrustedProxies, config.trustedProxies),
    DashboardSettings.layer({
      baseUrl: config.baseUrl,
      masterKey: config.masterKey,
      previousMasterKey: config.previousMasterKey,
      platform: config.dashboard?.platform,
      requestLogRetentionDays: config.requestLogRetentionDays
    }),
    GatewayPluginRegistry.layer([...(config.builtInSandbox === false ? [] : [sandboxPlugin(config.masterKey, config.previousMasterKey)]), ...(config.plugins ?? [])], {
      ...(config.pluginCallTimeoutMillis !== undefined ? { callTimeoutMillis: config.pluginCallTimeoutMillis } : {})
    }),
    CheckoutLinks.layer({ key: config.masterKey, previousKey: config.previousMasterKey, baseUrl: config.baseUrl, lifetimeSeconds: config.checkoutLifetimeSeconds }),
    IdsLive,
    EventBodies.layer,
    RealClock.layer,
    CheckoutConfig.layer(),
    WebhookHttp.targetCheckLayer(),
    Readiness.layer,
    EventStreamSlots.layer().pipe(Layer.provide(RealClock.layer)),
    // Loads pdfkit on the first document only.
    PdfInvoiceDocuments.layer,
    metricsLayer(config.metrics),
    MailLayer.layer(config.mail ?? {}, config.baseUrl),
    // Beneath the HTTP app, not a background job: every host keeps its own calls; it writes what is
    // queued before the store closes.
    RequestLogWriter.layer().pipe(Layer.provide(IdsLive))
  ).pipe(
    // The one place private webhook targets are allowed or not: the ipn_url rules, the lookup check
    // and the sender all read it, so it sits beneath everything built here (a sibling would not see it).
    Layer.provideMerge(Layer.succeed(WebhookTargets, { allowPrivateTargets: config.webhooks.allowPrivateTargets })),
    Layer.provideMerge(storageLayer(config.store))
  )
  // Built over the services they capture: invoice settlement rides every payment's end.
  const subscriptions = Layer.mergeAll(
    InvoiceSettlement.layer,
    MailRenderer.layer({ baseUrl: config.baseUrl }),
    SavedMethods.keeperLayer,
    SubscriptionScheduler.configLayer({ batchSize: config.scheduler?.batchSize ?? SubscriptionScheduler.DEFAULT_BATCH_SIZE })
  ).pipe(Layer.provideMerge(base))
  // Jobs start after everything they use and stop before it: no send is cut off by a closing pool.
  return backgroundJobsLayer(config).pipe(Layer.provideMerge(subscriptions))
}
