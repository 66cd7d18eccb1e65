import { describe, expect, it } from "vitest"
import { ConfigProblem, readHostConfig } from "./host-config.js"

const problemOf = (env: NodeJS.ProcessEnv): string => {
  try {
    readHostConfig(env)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigProblem)
    return (error as ConfigProblem).message
  }
  throw new Error("expected a ConfigProblem")
}

describe("the host's settings, read once", () => {
  it("names every bad setting in one problem, each by its variable", () => {
    const message = problemOf({ PORT: "eighty", LOG_LEVEL: "loud", WEBHOOK_ALLOW_PRIVATE_TARGETS: "yes" })
    expect(message).toContain(`PORT must be a whole number from 0 to 65535, got "eighty"`)
    expect(message).toContain(`LOG_LEVEL must be one of debug, info, warn, error, got "loud"`)
    expect(message).toContain(`WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false, got "yes"`)
    // A store address the kit cannot use is told with the rest, as a ConfigProblem too.
    expect(problemOf({ PORT: "eighty", DATABASE_URL: "mysql://db/payments" })).toMatch(/PORT must be .*; DATABASE_URL/)
  })

  it("reads TRUSTED_PROXIES as addresses and CIDR blocks, naming a bad entry", () => {
    expect(readHostConfig({}).trustedProxies).toEqual([])
    expect(readHostConfig({ TRUSTED_PROXIES: "10.0.0.0/8, ::1 ,192.0.2.7" }).trustedProxies).toEqual(["10.0.0.0/8", "::1", "192.0.2.7"])
    expect(problemOf({ TRUSTED_PROXIES: "10.0.0.0/8,10.0.0.0/33" }))
      .toBe(`TRUSTED_PROXIES must list IP addresses or CIDR blocks, comma-separated: "10.0.0.0/33" is not an IP address or a CIDR block such as 10.0.0.0/8 or 2001:db8::/32`)
  })

  it("reads SMTP_URL, SANDBOX_SMTP_URL and MAIL_FROM, never repeating a refused URL (it may hold a password)", () => {
    expect(readHostConfig({}).mail).toEqual({ smtpUrl: undefined, sandboxSmtpUrl: undefined, from: undefined })
    expect(readHostConfig({ SMTP_URL: "smtps://u:p@smtp.example.com:465", SANDBOX_SMTP_URL: "smtp://catcher:1025", MAIL_FROM: "Billing <b@shop.example>" }).mail)
      .toEqual({ smtpUrl: "smtps://u:p@smtp.example.com:465", sandboxSmtpUrl: "smtp://catcher:1025", from: "Billing <b@shop.example>" })
    const refused = problemOf({ SMTP_URL: "https://user:hunter2@smtp.example.com" })
    expect(refused).toBe("SMTP_URL must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465")
    expect(refused).not.toContain("hunter2")
    expect(problemOf({ SMTP_URL: "smtp://mail:25", SANDBOX_SMTP_URL: "smtp://mail:25" })).toBe("SANDBOX_SMTP_URL must not be the SMTP_URL server")
  })

  it("tells a rule between two settings in both their names", () => {
    expect(problemOf({ HTTP_REQUEST_TIMEOUT_MS: "1000", HTTP_HEADERS_TIMEOUT_MS: "2000" }))
      .toBe("HTTP_HEADERS_TIMEOUT_MS (2000) must not exceed HTTP_REQUEST_TIMEOUT_MS (1000)")
    expect(problemOf({ CLOCK_START: "2030-01-01T00:00:00Z" })).toBe("CLOCK_START is only read with CLOCK=manual")
    expect(problemOf({ DATABASE_POOL_SIZE: "20" })).toBe("DATABASE_POOL_SIZE is only read with a postgres:// DATABASE_URL (SQLite has one connection)")
  })

  it("reads DATABASE_POOL_SIZE into the PostgreSQL store, a whole number from 1 to 1000", () => {
    const postgres = { DATABASE_URL: "postgres://payments@db:5432/payments" }
    expect(readHostConfig({ ...postgres, DATABASE_POOL_SIZE: "25" }).store).toEqual({ kind: "postgres", url: postgres.DATABASE_URL, poolSize: 25 })
    expect(readHostConfig(postgres).store).toEqual({ kind: "postgres", url: postgres.DATABASE_URL })
    for (const bad of ["0", "1001", "2.5", "-3", "ten", " 12"]) {
      expect(problemOf({ ...postgres, DATABASE_POOL_SIZE: bad })).toBe(`DATABASE_POOL_SIZE must be a whole number from 1 to 1000, got "${bad}"`)
    }
  })

  it("takes an empty variable as unset, but an empty retry schedule as no retries", () => {
    const config = readHostConfig({ PORT: "", LOG_LEVEL: "", WEBHOOK_RETRY_DELAYS_MS: "" })
    expect(config.port).toBe(8080)
    expect(config.logging.level).toBe("info")
    expect(config.webhooks.retryDelaysMillis).toEqual([])
    expect(readHostConfig({}).webhooks.retryDelaysMillis.length).toBeGreaterThan(0)
  })

  it("reads the values it is given", () => {
    const config = readHostConfig({
      PORT: "9090", HOST: "127.0.0.1", LOG_FORMAT: "JSON", SCHEDULER: "off", CLOCK: "manual",
      CLOCK_START: "2030-01-01T00:00:00Z", WEBHOOK_RETRY_DELAYS_MS: "10, 20", GATEWAY_PLUGINS: " a , ,b "
    })
    expect(config.baseUrl).toBe("http://127.0.0.1:9090")
    expect(config.logging.format).toBe("json")
    expect(config.scheduler.enabled).toBe(false)
    expect(config.clockStartMillis).toBe(Date.UTC(2030, 0, 1))
    expect(config.webhooks.retryDelaysMillis).toEqual([10, 20])
    expect(config.gatewayPlugins).toEqual(["a", "b"])
  })

  it("reads METRICS and METRICS_PUBLIC: on behind the token by default, public or off when told", () => {
    expect(readHostConfig({}).metrics).toEqual({ enabled: true, public: false })
    expect(readHostConfig({ METRICS_PUBLIC: "true" }).metrics).toEqual({ enabled: true, public: true })
    expect(readHostConfig({ METRICS: "OFF" }).metrics).toEqual({ enabled: false, public: false })
    expect(problemOf({ METRICS: "maybe", METRICS_PUBLIC: "yes" })).toBe(
      `METRICS must be one of on, off, got "maybe"; METRICS_PUBLIC must be true or false, got "yes"`
    )
  })

  it("takes the documented 8-attempt schedule (about 27 hours) and a pause period; refuses an endless schedule", () => {
    const config = readHostConfig({
      WEBHOOK_RETRY_DELAYS_MS: "5000,300000,1800000,7200000,18000000,36000000,36000000",
      WEBHOOK_PAUSE_AFTER_SECONDS: "432000"
    })
    expect(config.webhooks.retryDelaysMillis.length + 1).toBe(8)
    const hours = config.webhooks.retryDelaysMillis.reduce((sum, delay) => sum + delay, 0) / 3_600_000
    expect(hours).toBeGreaterThan(27)
    expect(hours).toBeLessThan(28)
    expect(config.webhooks.pauseAfterSeconds).toBe(432_000)
    expect(readHostConfig({}).webhooks.pauseAfterSeconds).toBeUndefined()
    expect(() => readHostConfig({ WEBHOOK_RETRY_DELAYS_MS: Array.from({ length: 51 }, () => "1").join(",") })).toThrow(/WEBHOOK_RETRY_DELAYS_MS.*at most 50 delays/)
    expect(() => readHostConfig({ WEBHOOK_PAUSE_AFTER_SECONDS: "0" })).toThrow(/WEBHOOK_PAUSE_AFTER_SECONDS.*whole number from 1/)
  })

  it("takes the delivery lanes' sizes and a merchant's share of them, and leaves them to the defaults when unset", () => {
    const config = readHostConfig({ WEBHOOK_CONCURRENCY: "64", WEBHOOK_SLOW_LANE_CONCURRENCY: "16", WEBHOOK_MERCHANT_SHARE_PERCENT: "10" })
    expect([config.webhooks.concurrency, config.webhooks.slowLaneConcurrency, config.webhooks.merchantSharePercent]).toEqual([64, 16, 10])
    const unset = readHostConfig({}).webhooks
    expect([unset.concurrency, unset.slowLaneConcurrency, unset.merchantSharePercent]).toEqual([undefined, undefined, undefined])
    expect(() => readHostConfig({ WEBHOOK_MERCHANT_SHARE_PERCENT: "0" })).toThrow(/WEBHOOK_MERCHANT_SHARE_PERCENT.*whole number from 1 to 100/)
    expect(() => readHostConfig({ WEBHOOK_CONCURRENCY: "many" })).toThrow(/WEBHOOK_CONCURRENCY.*whole number from 1 to 1000/)
  })
})
