import { describe, expect, it } from "vitest"
import { configFromEnv, createMerchantPayments, MerchantPaymentsConfigError, type MerchantPaymentsOptions } from "./index.js"

const MASTER_KEY = "33".repeat(32)
const base = { database: "sqlite:/tmp/never-created-by-option-checks.db", masterKey: MASTER_KEY, baseUrl: "https://shop.example" }

/** What createMerchantPayments rejects with, for options typed or not (JavaScript callers pass anything). */
const refusal = async (options: unknown): Promise<MerchantPaymentsConfigError> => {
  const error = await createMerchantPayments(options as MerchantPaymentsOptions).then(
    () => expect.unreachable("createMerchantPayments accepted bad options"),
    (caught: unknown) => caught
  )
  expect(error).toBeInstanceOf(MerchantPaymentsConfigError)
  return error as MerchantPaymentsConfigError
}

describe("createMerchantPayments checks every option up front, naming it", () => {
  it("a Promise passed where options belong (configFromEnv without await) is named as such", async () => {
    const pending = configFromEnv({ DATABASE_URL: "sqlite:/tmp/never.db", MASTER_KEY, BASE_URL: "https://shop.example" })
    const error = await refusal(pending)
    expect(error.option).toBe("options")
    expect(error.message).toContain("given a Promise")
    expect(error.message).toContain("await configFromEnv(process.env)")
    await pending
  })

  it("the same Promise spread ({ ...configFromEnv(env) }) is an empty object, named as such", async () => {
    const pending = configFromEnv({ DATABASE_URL: "sqlite:/tmp/never.db", MASTER_KEY, BASE_URL: "https://shop.example" })
    const error = await refusal({ ...pending })
    expect(error.option).toBe("options")
    expect(error.message).toContain("without await")
    // With one more option beside the spread, the first missing required one is named.
    const withLogging = await refusal({ ...pending, logging: false })
    expect(withLogging.option).toBe("database")
    await pending
  })

  it.each([
    ["no options at all", undefined, "options", "needs an options object"],
    ["a string", "sqlite:x.db", "options", "needs an options object"],
    ["a missing database", { masterKey: MASTER_KEY, baseUrl: "https://shop.example" }, "database", "database is required"],
    ["a database of the wrong type", { ...base, database: 5 }, "database", "must be a database URL"],
    ["an unknown store kind", { ...base, database: { kind: "mysql", url: "x" } }, "database", "got a store of kind \"mysql\""],
    ["a postgres store without its url", { ...base, database: { kind: "postgres" } }, "database.url", "database.url is required"],
    ["a pool of no connections", { ...base, database: { kind: "postgres", url: "postgres://db/pay", poolSize: 0 } }, "database.poolSize", "database.poolSize must be a whole number from 1 to 1000, got number 0"],
    ["a pool size past the bound", { ...base, database: { kind: "postgres", url: "postgres://db/pay", poolSize: 5000 } }, "database.poolSize", "whole number from 1 to 1000"],
    ["a fractional pool size", { ...base, database: { kind: "postgres", url: "postgres://db/pay", poolSize: 2.5 } }, "database.poolSize", "whole number"],
    ["a pool size as a string", { ...base, database: { kind: "postgres", url: "postgres://db/pay", poolSize: "20" } }, "database.poolSize", "got \"20\""],
    ["a pool size for SQLite", { ...base, database: { kind: "sqlite", filename: "x.db", poolSize: 4 } }, "database.poolSize", "only read with a postgres store"],
    ["a missing masterKey", { database: base.database, baseUrl: base.baseUrl }, "masterKey", "masterKey is required"],
    ["a masterKey of the wrong type", { ...base, masterKey: 42 }, "masterKey", "must be a string"],
    ["a short masterKey", { ...base, masterKey: "short" }, "masterKey", "masterKey must be 32 bytes"],
    ["a previousMasterKey of the wrong type", { ...base, previousMasterKey: 42 }, "previousMasterKey", "previousMasterKey must be a string"],
    ["a short previousMasterKey", { ...base, previousMasterKey: "short" }, "previousMasterKey", "previousMasterKey must be 32 bytes"],
    ["a previousMasterKey of 16 bytes", { ...base, previousMasterKey: new Uint8Array(16) }, "previousMasterKey", "previousMasterKey must be 32 bytes"],
    ["a missing baseUrl", { database: base.database, masterKey: MASTER_KEY }, "baseUrl", "baseUrl is required"],
    ["a baseUrl that is not a URL", { ...base, baseUrl: "shop.example" }, "baseUrl", "public http(s) address"],
    ["a baseUrl of the wrong type", { ...base, baseUrl: new URL("https://shop.example") }, "baseUrl", "non-empty string"],
    ["an empty adminToken", { ...base, adminToken: "" }, "adminToken", "non-empty string"],
    ["a basePath with a query", { ...base, basePath: "payments?x" }, "basePath", "basePath must look like"],
    ["a basePath of the wrong type", { ...base, basePath: ["/payments"] }, "basePath", "must be a string"],
    ["plugins that are not an array", { ...base, plugins: { id: "x" } }, "plugins", "must be an array"],
    ["an unknown setting", { ...base, settings: { siteTitle: "x" } }, "settings.siteTitle", "is not an option"],
    ["a bad setting", { ...base, settings: { rateLimitPerMinute: 0 } }, "settings.rateLimitPerMinute", "is not valid"],
    ["a webhook timeout of the wrong type", { ...base, webhooks: { timeoutMs: "10s" } }, "webhooks.timeoutMs", "whole number"],
    ["a negative retry delay", { ...base, webhooks: { retryDelaysMillis: [60_000, -1] } }, "webhooks.retryDelaysMillis[1]", "whole number"],
    ["a schedule of 51 retries", { ...base, webhooks: { retryDelaysMillis: Array.from({ length: 51 }, () => 1) } }, "webhooks.retryDelaysMillis", "at most 50"],
    ["a pause period of zero", { ...base, webhooks: { pauseAfterSeconds: 0 } }, "webhooks.pauseAfterSeconds", "whole number from 1"],
    ["no fast lane", { ...base, webhooks: { concurrency: 0 } }, "webhooks.concurrency", "whole number from 1 to 1000"],
    ["a slow lane of half a sender", { ...base, webhooks: { slowLaneConcurrency: 0.5 } }, "webhooks.slowLaneConcurrency", "whole number from 1"],
    ["a merchant share over the whole", { ...base, webhooks: { merchantSharePercent: 150 } }, "webhooks.merchantSharePercent", "whole number from 1 to 100"],
    ["metrics as a word", { ...base, metrics: "public" }, "metrics", "true, false or { public: boolean }"],
    ["metrics.public of the wrong type", { ...base, metrics: { public: "yes" } }, "metrics.public", "true or false"],
    ["an unknown metrics option", { ...base, metrics: { path: "/stats" } }, "metrics.path", "is not an option"],
    ["trustedProxies as one string", { ...base, trustedProxies: "10.0.0.0/8" }, "trustedProxies", "must be an array of IP addresses or CIDR blocks"],
    ["trustedProxies holding a number", { ...base, trustedProxies: [10] }, "trustedProxies", "must be an array of IP addresses or CIDR blocks"],
    ["a trusted proxy that is a host name", { ...base, trustedProxies: ["10.0.0.1", "proxy.internal"] }, "trustedProxies", "\"proxy.internal\" is not an IP address or a CIDR block"],
    ["a trusted proxy block past /32", { ...base, trustedProxies: ["10.0.0.0/40"] }, "trustedProxies", "\"10.0.0.0/40\" is not an IP address or a CIDR block"],
    ["mail.smtpUrl that is not an SMTP URL", { ...base, mail: { smtpUrl: "https://mail.example" } }, "mail.smtpUrl", "must be an smtp:// or smtps:// URL"],
    ["mail.sandboxSmtpUrl the same server as mail.smtpUrl", { ...base, mail: { smtpUrl: "smtp://mail:25", sandboxSmtpUrl: "smtp://mail:25" } }, "mail.sandboxSmtpUrl", "never reaches real inboxes"],
    ["an unknown mail option", { ...base, mail: { host: "mail" } }, "mail.host", "is not an option"],
    ["dashboard as a function", { ...base, dashboard: () => null }, "dashboard", "must be an object"],
    ["dashboard.authenticate without signInUrl", { ...base, dashboard: { authenticate: (): null => null } }, "dashboard.signInUrl", "where the platform signs people in"],
    ["dashboard.signInUrl without authenticate", { ...base, dashboard: { signInUrl: "/login" } }, "dashboard.authenticate", "must be a function"],
    ["dashboard.signInUrl that is not a path or URL", { ...base, dashboard: { authenticate: (): null => null, signInUrl: "javascript:alert(1)" } }, "dashboard.signInUrl", "a path such as"],
    ["an unknown dashboard option", { ...base, dashboard: { users: [] } }, "dashboard.users", "is not an option"],
    ["an unknown clock", { ...base, clock: "fast" }, "clock", "must be one of"],
    ["a clockStart without a manual clock", { ...base, clockStart: "2030-01-01T00:00:00Z" }, "clockStart", "only read with clock"],
    ["a clockStart that is not a date", { ...base, clock: "manual", clockStart: "tomorrow" }, "clockStart", "ISO 8601"],
    ["backgroundJobs as a string", { ...base, backgroundJobs: "false" }, "backgroundJobs", "true or false"],
    ["a zero scheduler batch", { ...base, scheduler: { batchSize: 0 } }, "scheduler.batchSize", "whole number from 1"],
    ["crypto currencies as a string", { ...base, cryptoCurrencies: "BTC" }, "cryptoCurrencies", "array of currency codes"],
    ["a bad crypto currency", { ...base, cryptoCurrencies: ["B"] }, "cryptoCurrencies", "cryptoCurrencies:"],
    ["a fractional checkout lifetime", { ...base, checkoutLifetimeMinutes: 1.5 }, "checkoutLifetimeMinutes", "whole number"],
    ["a negative plugin timeout", { ...base, pluginCallTimeoutMillis: -5 }, "pluginCallTimeoutMillis", "whole number"],
    ["logging: true", { ...base, logging: true }, "logging", "must be false or an object"],
    ["an unknown log level", { ...base, logging: { level: "verbose" } }, "logging.level", "must be one of"],
    ["a log writer that is not a function", { ...base, logging: { write: "stdout" } }, "logging.write", "must be a function"],
    ["a misspelt option", { ...base, baseURL: "https://shop.example" }, "baseURL", "is not an option"]
  ])("%s", async (_name, options, option, text) => {
    const error = await refusal(options)
    expect(error.option).toBe(option)
    expect(error.message).toContain(text)
    expect(error.message).not.toMatch(/Cannot read properties|undefined \(reading/)
  })
})
