import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { SiteSettingsPatch } from "../../core/settings/site-settings.js"

/**
 * Every option of `createMerchantPayments` checked up front, so a mistake is a
 * `MerchantPaymentsConfigError` naming the option, never a TypeError from deep inside the kit.
 * Values are read here only for their shape; what a value means (a URL's form, a key's bytes) is
 * read where it is used (`assemble`), with the same error.
 */

/** A bad option, said in the option's own name: thrown by `createMerchantPayments` before anything starts. */
export class MerchantPaymentsConfigError extends Error {
  override readonly name = "MerchantPaymentsConfigError"
  /** The option at fault, as written in the options (`webhooks.timeoutMs`), or `options` for the whole. */
  readonly option: string

  constructor(option: string, message: string) {
    super(message)
    this.option = option
  }
}

export const problem = (option: string, message: string): never => {
  throw new MerchantPaymentsConfigError(option, message)
}

export const describe = (value: unknown): string => {
  if (value === null) return "null"
  if (Array.isArray(value)) return "an array"
  if (typeof value === "string") return `"${value.length > 40 ? `${value.slice(0, 40)}...` : value}"`
  if (typeof value === "object") return "an object"
  return typeof value === "function" ? "a function" : `${typeof value} ${String(value)}`
}

export const isPlainObject = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isThenable = (value: unknown): boolean =>
  (typeof value === "object" || typeof value === "function") && value !== null &&
  typeof (value as { readonly then?: unknown }).then === "function"

export const expectString = (option: string, value: unknown, required: boolean): void => {
  if (value === undefined && !required) return
  if (value === undefined) problem(option, `${option} is required`)
  if (typeof value !== "string" || value === "") problem(option, `${option} must be a non-empty string, got ${describe(value)}`)
}

const expectBoolean = (option: string, value: unknown): void => {
  if (value !== undefined && typeof value !== "boolean") problem(option, `${option} must be true or false, got ${describe(value)}`)
}

const expectInteger = (option: string, value: unknown, min: number, max: number): void => {
  if (value === undefined) return
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    problem(option, `${option} must be a whole number from ${min} to ${max}, got ${describe(value)}`)
  }
}

export const expectOneOf = (option: string, value: unknown, allowed: ReadonlyArray<string>): void => {
  if (value !== undefined && !allowed.includes(value as string)) {
    problem(option, `${option} must be one of ${allowed.map((item) => `"${item}"`).join(", ")}, got ${describe(value)}`)
  }
}

export const expectObject = (option: string, value: unknown, known: ReadonlyArray<string>): Readonly<Record<string, unknown>> | undefined => {
  if (value === undefined) return undefined
  if (!isPlainObject(value)) return problem(option, `${option} must be an object, got ${describe(value)}`)
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) problem(`${option}.${key}`, `${option}.${key} is not an option; known: ${known.join(", ")}`)
  }
  return value
}

/** The bounds of the numeric options, which the standalone host's variables share. */
export const OPTION_BOUNDS = {
  checkoutLifetimeMinutes: [1, 10_080],
  pluginCallTimeoutMillis: [100, 120_000],
  // A PostgreSQL connection costs the server a process and some megabytes; past a thousand per host
  // a pool exhausts any server's max_connections rather than serving more.
  databasePoolSize: [1, 1_000],
  schedulerBatchSize: [1, 10_000],
  webhookTimeoutMs: [100, 120_000],
  webhookPollIntervalMillis: [10, 600_000],
  webhookRetryDelayMillis: [0, 86_400_000],
  webhookRetries: [0, 50],
  webhookPauseAfterSeconds: [1, 31_536_000],
  webhookConcurrency: [1, 1_000],
  webhookMerchantSharePercent: [1, 100],
  requestLogRetentionDays: [1, 3_650]
} as const satisfies Record<string, readonly [number, number]>

const OPTIONS = [
  "database", "masterKey", "previousMasterKey", "adminToken", "baseUrl", "basePath", "plugins", "settings", "webhooks", "clock", "clockStart",
  "backgroundJobs", "scheduler", "cryptoCurrencies", "checkoutLifetimeMinutes", "pluginCallTimeoutMillis", "requestLogRetentionDays", "logging", "metrics", "tracing",
  "dashboard", "trustedProxies", "mail"
] as const

const DATABASE_FORMS = `a database URL ("sqlite:./data/payments.db", "postgres://..."), a { kind: "sqlite" | "postgres" | "sql-client" } store or an @effect/sql client Layer`

const checkDatabase = (value: unknown): void => {
  if (value === undefined) problem("database", `database is required: ${DATABASE_FORMS}`)
  if (typeof value === "string" || Layer.isLayer(value)) return
  if (!isPlainObject(value)) return problem("database", `database must be ${DATABASE_FORMS}, got ${describe(value)}`)
  const store = expectObject("database", value, ["kind", "filename", "url", "poolSize", "client"])!
  if (store["kind"] !== "postgres" && store["poolSize"] !== undefined) {
    problem("database.poolSize", `database.poolSize is only read with a postgres store (the pool's connections), got a store of kind ${describe(store["kind"])}`)
  }
  if (store["kind"] === "sqlite") return expectString("database.filename", store["filename"], true)
  if (store["kind"] === "postgres") {
    expectString("database.url", store["url"], true)
    return expectInteger("database.poolSize", store["poolSize"], ...OPTION_BOUNDS.databasePoolSize)
  }
  if (store["kind"] === "sql-client" && Layer.isLayer(store["client"])) return
  problem("database", `database must be ${DATABASE_FORMS}, got a store of kind ${describe(store["kind"])}`)
}

const checkMasterKey = (value: unknown, name: "masterKey" | "previousMasterKey" = "masterKey"): void => {
  if (value === undefined) {
    if (name === "previousMasterKey") return
    problem(name, "masterKey is required: 32 bytes as 64 hex digits or base64 (the same on every host of one store)")
  }
  if (typeof value !== "string" && !(value instanceof Uint8Array)) {
    problem(name, `${name} must be a string (64 hex digits or base64) or 32 bytes, got ${describe(value)}`)
  }
}

/** Each setting by the rule the admin API stores it by. */
const checkSettings = (value: unknown): void => {
  const settings = expectObject("settings", value, Object.keys(SiteSettingsPatch.fields))
  for (const [key, setting] of Object.entries(settings ?? {})) {
    const decoded = Schema.decodeUnknownEither(SiteSettingsPatch)({ [key]: setting })
    if (Either.isLeft(decoded)) {
      const [issue] = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
      problem(`settings.${key}`, `settings.${key} is not valid (${issue?.message ?? "wrong value"}), got ${describe(setting)}`)
    }
  }
}

const checkWebhooks = (value: unknown): void => {
  const webhooks = expectObject("webhooks", value, [
    "timeoutMs", "retryDelaysMillis", "allowPrivateTargets", "pollIntervalMillis", "pauseAfterSeconds", "concurrency", "slowLaneConcurrency",
    "merchantSharePercent"
  ])
  if (webhooks === undefined) return
  expectInteger("webhooks.concurrency", webhooks["concurrency"], ...OPTION_BOUNDS.webhookConcurrency)
  expectInteger("webhooks.slowLaneConcurrency", webhooks["slowLaneConcurrency"], ...OPTION_BOUNDS.webhookConcurrency)
  expectInteger("webhooks.merchantSharePercent", webhooks["merchantSharePercent"], ...OPTION_BOUNDS.webhookMerchantSharePercent)
  expectInteger("webhooks.timeoutMs", webhooks["timeoutMs"], ...OPTION_BOUNDS.webhookTimeoutMs)
  expectInteger("webhooks.pollIntervalMillis", webhooks["pollIntervalMillis"], ...OPTION_BOUNDS.webhookPollIntervalMillis)
  expectBoolean("webhooks.allowPrivateTargets", webhooks["allowPrivateTargets"])
  expectInteger("webhooks.pauseAfterSeconds", webhooks["pauseAfterSeconds"], ...OPTION_BOUNDS.webhookPauseAfterSeconds)
  const delays = webhooks["retryDelaysMillis"]
  if (delays === undefined) return
  if (!Array.isArray(delays)) return problem("webhooks.retryDelaysMillis", `webhooks.retryDelaysMillis must be an array of milliseconds, got ${describe(delays)}`)
  const [, most] = OPTION_BOUNDS.webhookRetries
  if (delays.length > most) return problem("webhooks.retryDelaysMillis", `webhooks.retryDelaysMillis may hold at most ${most} delays, got ${delays.length}`)
  delays.forEach((delay, index) => expectInteger(`webhooks.retryDelaysMillis[${index}]`, delay, ...OPTION_BOUNDS.webhookRetryDelayMillis))
}

const checkLogging = (value: unknown): void => {
  if (value === undefined || value === false) return
  if (value === true) return problem("logging", "logging must be false or an object { format, level, write }, got true")
  const logging = expectObject("logging", value, ["format", "level", "write"])!
  expectOneOf("logging.format", logging["format"], ["human", "json"])
  expectOneOf("logging.level", logging["level"], ["debug", "info", "warn", "error"])
  if (logging["write"] !== undefined && typeof logging["write"] !== "function") {
    problem("logging.write", `logging.write must be a function (line: string) => void, got ${describe(logging["write"])}`)
  }
}

const checkMetrics = (value: unknown): void => {
  if (value === undefined || typeof value === "boolean") return
  if (!isPlainObject(value)) return problem("metrics", `metrics must be true, false or { public: boolean }, got ${describe(value)}`)
  expectBoolean("metrics.public", expectObject("metrics", value, ["public"])!["public"])
}

/** The platform's own sign-in for the dashboard: both parts, or neither (the kit's merchant users then). */
const checkDashboard = (value: unknown): void => {
  const dashboard = expectObject("dashboard", value, ["authenticate", "signInUrl"])
  if (dashboard === undefined) return
  const { authenticate, signInUrl } = dashboard
  if (authenticate === undefined && signInUrl === undefined) return
  if (typeof authenticate !== "function") {
    problem("dashboard.authenticate", `dashboard.authenticate must be a function (request) => { merchantId, userId, role } | null (or a Promise of one), got ${describe(authenticate)}`)
  }
  if (typeof signInUrl !== "string" || !(signInUrl.startsWith("/") || /^https?:\/\//.test(signInUrl))) {
    problem("dashboard.signInUrl", `dashboard.signInUrl must be where the platform signs people in, a path such as "/login" or an http(s) URL, got ${describe(signInUrl)}`)
  }
}

/**
 * Throws `MerchantPaymentsConfigError` for the first missing or wrong option. A Promise (say,
 * `configFromEnv(...)` without `await`) and an empty object (the same Promise spread) are named as such.
 */
export const checkOptions = (options: unknown): void => {
  if (isThenable(options)) {
    problem("options", "createMerchantPayments was given a Promise, not options: configFromEnv is async, so write createMerchantPayments(await configFromEnv(process.env))")
  }
  if (!isPlainObject(options)) return problem("options", `createMerchantPayments needs an options object, got ${describe(options)}`)
  if (Object.keys(options).length === 0) {
    problem("options", "createMerchantPayments was given no options: database, masterKey and baseUrl are required (spreading configFromEnv(...) without await gives an empty object)")
  }
  for (const key of Object.keys(options)) {
    if (!(OPTIONS as ReadonlyArray<string>).includes(key)) problem(key, `${key} is not an option of createMerchantPayments; known: ${OPTIONS.join(", ")}`)
  }
  checkDatabase(options["database"])
  checkMasterKey(options["masterKey"])
  checkMasterKey(options["previousMasterKey"], "previousMasterKey")
  expectString("baseUrl", options["baseUrl"], true)
  expectString("adminToken", options["adminToken"], false)
  if (options["basePath"] !== undefined && typeof options["basePath"] !== "string") {
    problem("basePath", `basePath must be a string such as "/payments", got ${describe(options["basePath"])}`)
  }
  if (options["plugins"] !== undefined && !Array.isArray(options["plugins"])) {
    problem("plugins", `plugins must be an array of gateway plugins, got ${describe(options["plugins"])}`)
  }
  checkSettings(options["settings"])
  checkWebhooks(options["webhooks"])
  expectOneOf("clock", options["clock"], ["real", "manual"])
  const clockStart = options["clockStart"]
  if (clockStart !== undefined && typeof clockStart !== "string" && !(typeof clockStart === "number" && Number.isSafeInteger(clockStart))) {
    problem("clockStart", `clockStart must be an ISO 8601 date-time or epoch milliseconds, got ${describe(clockStart)}`)
  }
  expectBoolean("backgroundJobs", options["backgroundJobs"])
  const scheduler = expectObject("scheduler", options["scheduler"], ["enabled", "batchSize"])
  if (scheduler !== undefined) {
    expectBoolean("scheduler.enabled", scheduler["enabled"])
    expectInteger("scheduler.batchSize", scheduler["batchSize"], ...OPTION_BOUNDS.schedulerBatchSize)
  }
  const crypto = options["cryptoCurrencies"]
  if (crypto !== undefined && (!Array.isArray(crypto) || crypto.some((code) => typeof code !== "string"))) {
    problem("cryptoCurrencies", `cryptoCurrencies must be an array of currency codes, got ${describe(crypto)}`)
  }
  expectInteger("checkoutLifetimeMinutes", options["checkoutLifetimeMinutes"], ...OPTION_BOUNDS.checkoutLifetimeMinutes)
  expectInteger("pluginCallTimeoutMillis", options["pluginCallTimeoutMillis"], ...OPTION_BOUNDS.pluginCallTimeoutMillis)
  expectInteger("requestLogRetentionDays", options["requestLogRetentionDays"], ...OPTION_BOUNDS.requestLogRetentionDays)
  checkLogging(options["logging"])
  checkMetrics(options["metrics"])
  checkDashboard(options["dashboard"])
  const proxies = options["trustedProxies"]
  if (proxies !== undefined && (!Array.isArray(proxies) || proxies.some((entry) => typeof entry !== "string"))) {
    problem("trustedProxies", `trustedProxies must be an array of IP addresses or CIDR blocks such as ["10.0.0.0/8"], got ${describe(proxies)}`)
  }
  const mail = expectObject("mail", options["mail"], ["smtpUrl", "sandboxSmtpUrl", "from", "pollIntervalMillis"])
  if (mail !== undefined) {
    for (const key of ["smtpUrl", "sandboxSmtpUrl"]) {
      const url = mail[key]
      // The value is never repeated: it may hold the SMTP password.
      if (url !== undefined && (typeof url !== "string" || !/^smtps?:\/\/[^/]/.test(url) || !URL.canParse(url))) {
        problem(`mail.${key}`, `mail.${key} must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465`)
      }
    }
    if (mail["sandboxSmtpUrl"] !== undefined && mail["sandboxSmtpUrl"] === mail["smtpUrl"]) {
      problem("mail.sandboxSmtpUrl", "mail.sandboxSmtpUrl must not be the mail.smtpUrl server: sandbox mail never reaches real inboxes")
    }
    expectString("mail.from", mail["from"], false)
    expectInteger("mail.pollIntervalMillis", mail["pollIntervalMillis"], ...OPTION_BOUNDS.webhookPollIntervalMillis)
  }
}
