import { resolve } from "node:path"
import * as Config from "effect/Config"
import * as ConfigError from "effect/ConfigError"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { LogFormat } from "../../adapters/logging/log-line.js"
import type { LogLevelName } from "../../adapters/logging/logger-layer.js"
import { fromIsoString } from "../../core/shared/instant.js"
import { MerchantPaymentsConfigError, OPTION_BOUNDS } from "./option-checks.js"
import { normalizeBasePath, storeOf } from "./options.js"
import { defaultWebhookConfig, type StoreConfig, type WebhookConfig } from "../kit-layer.js"
import { DEFAULT_SERVICE_NAME } from "../../adapters/tracing/tracing-config.js"
import { otlpHeaders, otlpUrl, type OtlpTracingOptions, tracingOf } from "./otlp-variables.js"
import { trustedProxiesOf } from "../../adapters/http/request/client-address.js"

/** A failure already put into the one line the host prints for it. */
export class HostFailure extends Error {}

/** The standalone host's settings, read from the environment (README lists them). */
export interface HostConfig {
  readonly port: number
  readonly host: string
  readonly baseUrl: string
  /** Where the kit answers under BASE_URL's host, e.g. `/payments` behind a proxy that keeps the prefix. */
  readonly basePath: string
  readonly store: StoreConfig
  readonly dataDir: string
  readonly adminToken: string | undefined
  readonly masterKey: string | undefined
  /** MASTER_KEY_PREVIOUS: during a rotation, the key the store was sealed under before MASTER_KEY. */
  readonly previousMasterKey: string | undefined
  readonly signatureToleranceSeconds: number | undefined
  readonly rateLimitPerMinute: number | undefined
  readonly demo: boolean
  readonly cryptoCurrencies: ReadonlyArray<string>
  readonly checkoutLifetimeSeconds: number
  /** `manual`: business time starts at real time and moves only through the admin clock API. */
  readonly clock: "real" | "manual"
  /** Where a manual clock starts (CLOCK_START, ISO 8601); real time of start-up when unset. */
  readonly clockStartMillis: number | undefined
  /** The subscription scheduler's minute loop in this host (SCHEDULER=off stops it) and its batch. */
  readonly scheduler: { readonly enabled: boolean; readonly batchSize: number }
  readonly webhooks: WebhookConfig
  readonly http: HttpTimeouts
  readonly logging: { readonly format: LogFormat; readonly level: LogLevelName }
  /** Gateway plugin modules to load (GATEWAY_PLUGINS): npm package names or file paths, as written. */
  readonly gatewayPlugins: ReadonlyArray<string>
  /** GATEWAY_PLUGIN_TIMEOUT_MS; unset leaves the kit's default (10 s). */
  readonly pluginCallTimeoutMillis: number | undefined
  /** REQUEST_LOG_RETENTION_DAYS; unset leaves the kit's default (14). */
  readonly requestLogRetentionDays: number | undefined
  /** METRICS=off: no `/metrics` and no per-request counting; METRICS_PUBLIC: readable without the admin token. */
  readonly metrics: { readonly enabled: boolean; readonly public: boolean }
  /** Spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT (or its _TRACES_ form) is set; undefined: off. */
  readonly tracing: OtlpTracingOptions | undefined
  /** TRUSTED_PROXIES: the proxies whose forwarding headers name the client; empty: none. */
  readonly trustedProxies: ReadonlyArray<string>
  /** SMTP_URL (production mail; unset: off), SANDBOX_SMTP_URL (a mail catcher for sandbox mail), MAIL_FROM. */
  readonly mail: { readonly smtpUrl: string | undefined; readonly sandboxSmtpUrl: string | undefined; readonly from: string | undefined }
}


/** How long a client may take: to send its headers, and to send its whole request. */
export interface HttpTimeouts {
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
}

/** Settings the host cannot start with: every bad one, each named, in one message. */
export class ConfigProblem extends Error {}

/** What a variable's text means, or why it cannot be read (said after the variable's name). */
type Reader<A> = (text: string) => Either.Either<A, string>

/**
 * One environment variable through Effect's Config: unset (and, unless `emptyIsSet`, empty) is
 * None; a value its reader refuses fails under the variable's name, beside every other refusal.
 */
const variable = <A>(name: string, read: Reader<A>, options: { readonly emptyIsSet?: boolean } = {}): Config.Config<Option.Option<A>> =>
  Config.option(Config.string(name)).pipe(Config.mapOrFail((value) =>
    Option.isNone(value) || (value.value === "" && options.emptyIsSet !== true)
      ? Either.right(Option.none<A>())
      : Either.match(read(value.value), {
        onLeft: (problem) => Either.left(ConfigError.InvalidData([name], problem)),
        onRight: (read) => Either.right(Option.some(read))
      })))

const withFallback = <A>(config: Config.Config<Option.Option<A>>, fallback: A): Config.Config<A> =>
  Config.map(config, Option.getOrElse(() => fallback))

const optional = <A>(config: Config.Config<Option.Option<A>>): Config.Config<A | undefined> => Config.map(config, Option.getOrUndefined)

const text: Reader<string> = Either.right

const wholeNumber = (min: number, max: number): Reader<number> => (value) =>
  /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max
    ? Either.right(Number(value))
    : Either.left(`must be a whole number from ${min} to ${max}, got "${value}"`)

const flag: Reader<boolean> = (value) =>
  value === "true" || value === "false" ? Either.right(value === "true") : Either.left(`must be true or false, got "${value}"`)

const oneOf = <A extends string>(allowed: ReadonlyArray<A>): Reader<A> => (value) => {
  const found = allowed.find((candidate) => candidate === value.toLowerCase())
  return found === undefined ? Either.left(`must be one of ${allowed.join(", ")}, got "${value}"`) : Either.right(found)
}

/** A comma-separated list; blanks around and between commas are the operator's formatting, not entries. */
const list: Reader<ReadonlyArray<string>> = (value) => Either.right(value.split(",").map((item) => item.trim()).filter((item) => item !== ""))

/** A comma-separated list of waits in milliseconds, each up to a day; empty means one attempt only. */
const retryDelays: Reader<ReadonlyArray<number>> = (value) => {
  if (value.trim() === "") return Either.right([])
  const items = value.split(",")
  const [, most] = OPTION_BOUNDS.webhookRetries
  if (items.length > most) return Either.left(`at most ${most} delays, got ${items.length}`)
  return Either.all(items.map((item) => wholeNumber(...OPTION_BOUNDS.webhookRetryDelayMillis)(item.trim())))
}

/** An embedding option's own rule (its message names the variable already). */
const embeddingRule = <A>(check: () => A): Either.Either<A, string> => {
  try {
    return Either.right(check())
  } catch (error) {
    if (error instanceof MerchantPaymentsConfigError) return Either.left(error.message)
    throw error
  }
}

/** Addresses and CIDR blocks, comma-separated, each checked by the embedding option's own rule. */
const proxyList: Reader<ReadonlyArray<string>> = (value) =>
  Either.flatMap(list(value), (entries) =>
    Either.mapBoth(trustedProxiesOf(entries), {
      onLeft: (reason) => `must list IP addresses or CIDR blocks, comma-separated: ${reason}`,
      onRight: () => entries
    }))

/** An SMTP server's address for nodemailer; the refusal never repeats it (it may hold a password). */
const smtpAddress: Reader<string> = (value) =>
  /^smtps?:\/\/[^/]/.test(value) && URL.canParse(value)
    ? Either.right(value)
    : Either.left("must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465")

const isoInstant: Reader<number> = (value) => {
  const instant = fromIsoString(value)
  return instant === undefined ? Either.left(`must be an ISO 8601 date-time with an offset, got "${value}"`) : Either.right(Number(instant / 1000n))
}

/** DATABASE_URL's store, by the embedding option's rule (whose message Config names the variable before). */
const storeAddress: Reader<StoreConfig> = (url) =>
  Either.mapBoth(embeddingRule(() => storeOf(url, "DATABASE_URL")), {
    onLeft: (message) => message.replace(/^DATABASE_URL /, ""),
    onRight: (store): StoreConfig => store.kind === "sqlite" ? { kind: "sqlite", filename: resolve(store.filename) } : store
  })

/** Rules between settings, said in their names; each holds only once both settings read well. */
const between = (problem: string | undefined) => (problem === undefined ? Either.right(undefined) : Either.left(ConfigError.InvalidData([], problem)))

const settings = Config.all({
  port: withFallback(variable("PORT", wholeNumber(0, 65_535)), 8080),
  host: withFallback(variable("HOST", text), "0.0.0.0"),
  dataDir: withFallback(variable("DATA_DIR", text), "data"),
  baseUrl: optional(variable("BASE_URL", text)),
  basePath: optional(variable("BASE_PATH", text)),
  store: variable("DATABASE_URL", storeAddress),
  poolSize: optional(variable("DATABASE_POOL_SIZE", wholeNumber(...OPTION_BOUNDS.databasePoolSize))),
  adminToken: optional(variable("ADMIN_TOKEN", text)),
  masterKey: optional(variable("MASTER_KEY", text)),
  previousMasterKey: optional(variable("MASTER_KEY_PREVIOUS", text)),
  signatureToleranceSeconds: optional(variable("SIGNATURE_TOLERANCE_SECONDS", wholeNumber(1, 86_400))),
  rateLimitPerMinute: optional(variable("RATE_LIMIT_PER_MINUTE", wholeNumber(1, 1_000_000))),
  demo: withFallback(variable("DEMO", (value) => Either.right(value.toLowerCase() !== "false")), true),
  cryptoCurrencies: withFallback(variable("CRYPTO_CURRENCIES", list), []),
  checkoutLifetimeMinutes: withFallback(variable("CHECKOUT_LIFETIME_MINUTES", wholeNumber(...OPTION_BOUNDS.checkoutLifetimeMinutes)), 60),
  clock: withFallback(variable("CLOCK", oneOf(["real", "manual"] as const)), "real" as const),
  clockStart: variable("CLOCK_START", isoInstant),
  schedulerEnabled: Config.map(withFallback(variable("SCHEDULER", oneOf(["on", "off"] as const)), "on" as const), (mode) => mode === "on"),
  schedulerBatchSize: withFallback(variable("SCHEDULER_BATCH_SIZE", wholeNumber(...OPTION_BOUNDS.schedulerBatchSize)), 100),
  webhookTimeoutMs: withFallback(variable("WEBHOOK_TIMEOUT_MS", wholeNumber(...OPTION_BOUNDS.webhookTimeoutMs)), defaultWebhookConfig.timeoutMs),
  // Set but empty is a setting here: no retries.
  retryDelaysMillis: withFallback(variable("WEBHOOK_RETRY_DELAYS_MS", retryDelays, { emptyIsSet: true }), defaultWebhookConfig.retryDelaysMillis),
  allowPrivateTargets: withFallback(variable("WEBHOOK_ALLOW_PRIVATE_TARGETS", flag), false),
  pauseAfterSeconds: optional(variable("WEBHOOK_PAUSE_AFTER_SECONDS", wholeNumber(...OPTION_BOUNDS.webhookPauseAfterSeconds))),
  webhookPollIntervalMillis: withFallback(variable("WEBHOOK_POLL_INTERVAL_MS", wholeNumber(...OPTION_BOUNDS.webhookPollIntervalMillis)), defaultWebhookConfig.pollIntervalMillis),
  webhookConcurrency: optional(variable("WEBHOOK_CONCURRENCY", wholeNumber(...OPTION_BOUNDS.webhookConcurrency))),
  webhookSlowLaneConcurrency: optional(variable("WEBHOOK_SLOW_LANE_CONCURRENCY", wholeNumber(...OPTION_BOUNDS.webhookConcurrency))),
  webhookMerchantSharePercent: optional(variable("WEBHOOK_MERCHANT_SHARE_PERCENT", wholeNumber(...OPTION_BOUNDS.webhookMerchantSharePercent))),
  requestTimeoutMs: withFallback(variable("HTTP_REQUEST_TIMEOUT_MS", wholeNumber(100, 3_600_000)), 30_000),
  headersTimeoutMs: variable("HTTP_HEADERS_TIMEOUT_MS", wholeNumber(100, 3_600_000)),
  logFormat: withFallback(variable("LOG_FORMAT", oneOf(["human", "json"] as const)), "human" as const),
  logLevel: withFallback(variable("LOG_LEVEL", oneOf(["debug", "info", "warn", "error"] as const)), "info" as const),
  gatewayPlugins: withFallback(variable("GATEWAY_PLUGINS", list), []),
  pluginCallTimeoutMillis: optional(variable("GATEWAY_PLUGIN_TIMEOUT_MS", wholeNumber(...OPTION_BOUNDS.pluginCallTimeoutMillis))),
  requestLogRetentionDays: optional(variable("REQUEST_LOG_RETENTION_DAYS", wholeNumber(...OPTION_BOUNDS.requestLogRetentionDays))),
  metricsEnabled: Config.map(withFallback(variable("METRICS", oneOf(["on", "off"] as const)), "on" as const), (mode) => mode === "on"),
  metricsPublic: withFallback(variable("METRICS_PUBLIC", flag), false),
  otlpEndpoint: optional(variable("OTEL_EXPORTER_OTLP_ENDPOINT", otlpUrl)),
  otlpTracesEndpoint: optional(variable("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", otlpUrl)),
  otlpProtocol: optional(variable("OTEL_EXPORTER_OTLP_PROTOCOL", oneOf(["http/protobuf", "http/json"] as const))),
  otlpTracesProtocol: optional(variable("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", oneOf(["http/protobuf", "http/json"] as const))),
  otlpHeaders: withFallback(variable("OTEL_EXPORTER_OTLP_HEADERS", otlpHeaders), {}),
  otlpTracesHeaders: withFallback(variable("OTEL_EXPORTER_OTLP_TRACES_HEADERS", otlpHeaders), {}),
  serviceName: withFallback(variable("OTEL_SERVICE_NAME", text), DEFAULT_SERVICE_NAME),
  sdkDisabled: withFallback(variable("OTEL_SDK_DISABLED", flag), false),
  trustedProxies: withFallback(variable("TRUSTED_PROXIES", proxyList), []),
  smtpUrl: optional(variable("SMTP_URL", smtpAddress)),
  sandboxSmtpUrl: optional(variable("SANDBOX_SMTP_URL", smtpAddress)),
  mailFrom: optional(variable("MAIL_FROM", text))
}).pipe(
  Config.mapOrFail((read) => Either.map(
    Either.all([
      between(Option.isSome(read.clockStart) && read.clock !== "manual" ? "CLOCK_START is only read with CLOCK=manual" : undefined),
      between(read.poolSize !== undefined && !(Option.isSome(read.store) && read.store.value.kind === "postgres")
        ? "DATABASE_POOL_SIZE is only read with a postgres:// DATABASE_URL (SQLite has one connection)"
        : undefined),
      // Node refuses a header timeout longer than the request timeout; said here in the settings' names.
      between(Option.isSome(read.headersTimeoutMs) && read.headersTimeoutMs.value > read.requestTimeoutMs
        ? `HTTP_HEADERS_TIMEOUT_MS (${read.headersTimeoutMs.value}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${read.requestTimeoutMs})`
        : undefined),
      Either.mapLeft(embeddingRule(() => normalizeBasePath(read.basePath, "BASE_PATH")), (problem) => ConfigError.InvalidData([], problem)),
      // Sandbox mail must never reach real inboxes: its catcher cannot be the production server.
      between(read.sandboxSmtpUrl !== undefined && read.sandboxSmtpUrl === read.smtpUrl ? "SANDBOX_SMTP_URL must not be the SMTP_URL server" : undefined)
    ]),
    ([, , , basePath]): HostConfig => {
      const dataDir = resolve(read.dataDir)
      const shownHost = read.host === "0.0.0.0" || read.host === "::" ? "localhost" : read.host
      return {
        port: read.port,
        host: read.host,
        baseUrl: (read.baseUrl ?? `http://${shownHost}:${read.port}`).replace(/\/+$/, ""),
        basePath,
        // SQLite under DATA_DIR unless DATABASE_URL names a store.
        store: Option.match(read.store, {
          onNone: (): StoreConfig => ({ kind: "sqlite", filename: resolve(dataDir, "merchant-payments.db") }),
          onSome: (store): StoreConfig => store.kind === "postgres" && read.poolSize !== undefined ? { ...store, poolSize: read.poolSize } : store
        }),
        dataDir,
        adminToken: read.adminToken,
        masterKey: read.masterKey,
        previousMasterKey: read.previousMasterKey,
        signatureToleranceSeconds: read.signatureToleranceSeconds,
        rateLimitPerMinute: read.rateLimitPerMinute,
        demo: read.demo,
        cryptoCurrencies: read.cryptoCurrencies,
        checkoutLifetimeSeconds: read.checkoutLifetimeMinutes * 60,
        clock: read.clock,
        clockStartMillis: Option.getOrUndefined(read.clockStart),
        scheduler: { enabled: read.schedulerEnabled, batchSize: read.schedulerBatchSize },
        webhooks: {
          timeoutMs: read.webhookTimeoutMs,
          retryDelaysMillis: read.retryDelaysMillis,
          allowPrivateTargets: read.allowPrivateTargets,
          pollIntervalMillis: read.webhookPollIntervalMillis,
          ...(read.pauseAfterSeconds !== undefined ? { pauseAfterSeconds: read.pauseAfterSeconds } : {}),
          ...(read.webhookConcurrency !== undefined ? { concurrency: read.webhookConcurrency } : {}),
          ...(read.webhookSlowLaneConcurrency !== undefined ? { slowLaneConcurrency: read.webhookSlowLaneConcurrency } : {}),
          ...(read.webhookMerchantSharePercent !== undefined ? { merchantSharePercent: read.webhookMerchantSharePercent } : {})
        },
        http: {
          requestTimeoutMs: read.requestTimeoutMs,
          headersTimeoutMs: Option.getOrElse(read.headersTimeoutMs, () => Math.min(10_000, read.requestTimeoutMs))
        },
        logging: { format: read.logFormat, level: read.logLevel },
        gatewayPlugins: read.gatewayPlugins,
        pluginCallTimeoutMillis: read.pluginCallTimeoutMillis,
        requestLogRetentionDays: read.requestLogRetentionDays,
        metrics: { enabled: read.metricsEnabled, public: read.metricsPublic },
        tracing: tracingOf(read),
        trustedProxies: read.trustedProxies,
        mail: { smtpUrl: read.smtpUrl, sandboxSmtpUrl: read.sandboxSmtpUrl, from: read.mailFrom }
      }
    }
  ))
)

/** Every refused setting in a ConfigError, as `NAME must ...`. */
const problemsOf = (error: ConfigError.ConfigError): ReadonlyArray<string> => {
  switch (error._op) {
    case "And":
    case "Or":
      return [...problemsOf(error.left), ...problemsOf(error.right)]
    case "InvalidData":
    case "MissingData":
      return [error.path.length === 0 ? error.message : `${error.path.join(".")} ${error.message}`]
    case "SourceUnavailable":
    case "Unsupported":
      return [error.message]
  }
}

/**
 * The host's settings from `env`, read once through Effect's Config: a bad setting is named, and
 * every bad one is told in one ConfigProblem rather than the first alone.
 */
export const readHostConfig = (env: NodeJS.ProcessEnv = process.env): HostConfig => {
  const provider = ConfigProvider.fromMap(new Map(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)))
  return Either.getOrThrowWith(
    Effect.runSync(Effect.either(Effect.withConfigProvider(settings, provider))),
    (error) => new ConfigProblem(problemsOf(error).join("; "))
  )
}
