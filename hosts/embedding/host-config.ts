import { resolve } from "node:path"
import type { LogFormat } from "../../adapters/logging/log-line.js"
import type { LogLevelName } from "../../adapters/logging/logger-layer.js"
import { fromIsoString } from "../../core/shared/instant.js"
import { MerchantPaymentsConfigError, OPTION_BOUNDS } from "./option-checks.js"
import { normalizeBasePath, storeOf } from "./options.js"
import { defaultWebhookConfig, type StoreConfig, type WebhookConfig } from "../kit-layer.js"

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
}

/** How long a client may take: to send its headers, and to send its whole request. */
export interface HttpTimeouts {
  readonly headersTimeoutMs: number
  readonly requestTimeoutMs: number
}

export class ConfigProblem extends Error {}

/** An embedding option's refusal, as the host's own configuration problem. */
const asConfigProblem = <A>(read: () => A): A => {
  try {
    return read()
  } catch (error) {
    if (error instanceof MerchantPaymentsConfigError) throw new ConfigProblem(error.message)
    throw error
  }
}

const integer = (name: string, value: string | undefined, min: number, max: number): number | undefined => {
  if (value === undefined || value === "") return undefined
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigProblem(`${name} must be a whole number from ${min} to ${max}, got "${value}"`)
  }
  return Number(value)
}

export const storeFromUrl = (url: string | undefined, dataDir: string): StoreConfig => {
  if (url === undefined || url === "") return { kind: "sqlite", filename: resolve(dataDir, "merchant-payments.db") }
  const store = asConfigProblem(() => storeOf(url, "DATABASE_URL"))
  return store.kind === "sqlite" ? { kind: "sqlite", filename: resolve(store.filename) } : store
}

const flagValue = (name: string, value: string | undefined, fallback: boolean): boolean => {
  if (value === undefined || value === "") return fallback
  if (value === "true" || value === "false") return value === "true"
  throw new ConfigProblem(`${name} must be true or false, got "${value}"`)
}

/** A comma-separated list of waits in milliseconds, each up to a day; empty means one attempt only. */
const retryDelays = (value: string | undefined): ReadonlyArray<number> => {
  if (value === undefined) return defaultWebhookConfig.retryDelaysMillis
  if (value.trim() === "") return []
  return value.split(",").map((item) => integer("WEBHOOK_RETRY_DELAYS_MS", item.trim(), ...OPTION_BOUNDS.webhookRetryDelayMillis)!)
}

/** The embedding option's own rule, said in the variable's name. */
const basePathOf = (value: string | undefined): string =>
  asConfigProblem(() => normalizeBasePath(value, "BASE_PATH"))

const clockMode = (value: string | undefined): "real" | "manual" => {
  if (value === undefined || value === "" || value === "real") return "real"
  if (value === "manual") return "manual"
  throw new ConfigProblem(`CLOCK must be "real" or "manual", got "${value}"`)
}

const clockStart = (value: string | undefined, mode: "real" | "manual"): number | undefined => {
  if (value === undefined || value === "") return undefined
  if (mode !== "manual") throw new ConfigProblem("CLOCK_START is only read with CLOCK=manual")
  const instant = fromIsoString(value)
  if (instant === undefined) throw new ConfigProblem(`CLOCK_START must be an ISO 8601 date-time with an offset, got "${value}"`)
  return Number(instant / 1000n)
}

const oneOf = <A extends string>(name: string, value: string | undefined, allowed: ReadonlyArray<A>, fallback: A): A => {
  if (value === undefined || value === "") return fallback
  const found = allowed.find((candidate) => candidate === value.toLowerCase())
  if (found === undefined) throw new ConfigProblem(`${name} must be one of ${allowed.join(", ")}, got "${value}"`)
  return found
}

/** A comma-separated list; blanks around and between commas are the operator's formatting, not entries. */
const listOf = (value: string | undefined): ReadonlyArray<string> =>
  (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "")

/** Node refuses a header timeout longer than the request timeout; said here in the setting's names. */
const httpTimeouts = (env: NodeJS.ProcessEnv): HttpTimeouts => {
  const requestTimeoutMs = integer("HTTP_REQUEST_TIMEOUT_MS", env["HTTP_REQUEST_TIMEOUT_MS"], 100, 3_600_000) ?? 30_000
  const headersTimeoutMs = integer("HTTP_HEADERS_TIMEOUT_MS", env["HTTP_HEADERS_TIMEOUT_MS"], 100, 3_600_000) ??
    Math.min(10_000, requestTimeoutMs)
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigProblem(`HTTP_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`)
  }
  return { headersTimeoutMs, requestTimeoutMs }
}

export const readHostConfig = (env: NodeJS.ProcessEnv = process.env): HostConfig => {
  const port = integer("PORT", env["PORT"], 0, 65_535) ?? 8080
  const host = env["HOST"] || "0.0.0.0"
  const dataDir = resolve(env["DATA_DIR"] || "data")
  const shownHost = host === "0.0.0.0" || host === "::" ? "localhost" : host
  return {
    port,
    host,
    baseUrl: (env["BASE_URL"] || `http://${shownHost}:${port}`).replace(/\/+$/, ""),
    basePath: basePathOf(env["BASE_PATH"]),
    store: storeFromUrl(env["DATABASE_URL"], dataDir),
    dataDir,
    adminToken: env["ADMIN_TOKEN"] || undefined,
    masterKey: env["MASTER_KEY"] || undefined,
    signatureToleranceSeconds: integer("SIGNATURE_TOLERANCE_SECONDS", env["SIGNATURE_TOLERANCE_SECONDS"], 1, 86_400),
    rateLimitPerMinute: integer("RATE_LIMIT_PER_MINUTE", env["RATE_LIMIT_PER_MINUTE"], 1, 1_000_000),
    demo: (env["DEMO"] ?? "true").toLowerCase() !== "false",
    cryptoCurrencies: (env["CRYPTO_CURRENCIES"] ?? "").split(",").map((code) => code.trim()).filter((code) => code !== ""),
    checkoutLifetimeSeconds: (integer("CHECKOUT_LIFETIME_MINUTES", env["CHECKOUT_LIFETIME_MINUTES"], ...OPTION_BOUNDS.checkoutLifetimeMinutes) ?? 60) * 60,
    clock: clockMode(env["CLOCK"]),
    clockStartMillis: clockStart(env["CLOCK_START"], clockMode(env["CLOCK"])),
    scheduler: {
      enabled: oneOf("SCHEDULER", env["SCHEDULER"], ["on", "off"] as const, "on") === "on",
      batchSize: integer("SCHEDULER_BATCH_SIZE", env["SCHEDULER_BATCH_SIZE"], ...OPTION_BOUNDS.schedulerBatchSize) ?? 100
    },
    webhooks: {
      timeoutMs: integer("WEBHOOK_TIMEOUT_MS", env["WEBHOOK_TIMEOUT_MS"], ...OPTION_BOUNDS.webhookTimeoutMs) ?? defaultWebhookConfig.timeoutMs,
      retryDelaysMillis: retryDelays(env["WEBHOOK_RETRY_DELAYS_MS"]),
      allowPrivateTargets: flagValue("WEBHOOK_ALLOW_PRIVATE_TARGETS", env["WEBHOOK_ALLOW_PRIVATE_TARGETS"], false),
      pollIntervalMillis: integer("WEBHOOK_POLL_INTERVAL_MS", env["WEBHOOK_POLL_INTERVAL_MS"], ...OPTION_BOUNDS.webhookPollIntervalMillis) ?? defaultWebhookConfig.pollIntervalMillis
    },
    http: httpTimeouts(env),
    logging: {
      format: oneOf("LOG_FORMAT", env["LOG_FORMAT"], ["human", "json"] as const, "human"),
      level: oneOf("LOG_LEVEL", env["LOG_LEVEL"], ["debug", "info", "warn", "error"] as const, "info")
    },
    gatewayPlugins: listOf(env["GATEWAY_PLUGINS"]),
    pluginCallTimeoutMillis: integer("GATEWAY_PLUGIN_TIMEOUT_MS", env["GATEWAY_PLUGIN_TIMEOUT_MS"], ...OPTION_BOUNDS.pluginCallTimeoutMillis)
  }
}
