import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { adminRequest, apiRequest, type HttpResult, type Target } from "../conformance/http/signing.js"
import { AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE } from "../core/rate-limit/auth-throttle.js"
import { createMerchantPayments, type MerchantPayments } from "../hosts/embedding/index.js"

const ADMIN_TOKEN = "throttle-admin-token"

/**
 * Failed authentication is throttled: per client address and per merchant key, only requests that
 * fail are refused, answered 429 with Retry-After and their cause, one warning per burst, and good
 * clients (the same address's included) answered as before. Each burst comes from its own loopback
 * address so the cases do not share counters. hosts/standalone/auth-throttle.test.ts runs the built
 * host behind a trusted proxy.
 */
describe("failed authentication is throttled", () => {
  const scratch = mkdtempSync(join(tmpdir(), "mp-auth-throttle-"))
  const lines: Array<string> = []
  let payments: MerchantPayments
  let server: Server
  let target: Target

  beforeAll(async () => {
    payments = await createMerchantPayments({
      database: `sqlite:${join(scratch, "p.db")}`,
      masterKey: "44".repeat(32),
      adminToken: ADMIN_TOKEN,
      baseUrl: "https://shop.example",
      settings: { rateLimitPerMinute: 1_000_000 },
      logging: { level: "warn", write: (line) => void lines.push(line) }
    })
    server = createServer(payments.handler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    target = { baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}`, adminToken: ADMIN_TOKEN }
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    await payments.close()
    rmSync(scratch, { recursive: true, force: true })
  })

  /** The counts are per wall-clock minute: a burst starts well inside one, so it is counted whole. */
  const awayFromMinuteEdge = async () => {
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute))
  }
  const statuses = (results: ReadonlyArray<HttpResult>) => results.map((result) => result.status)
  const expectThrottled = (result: HttpResult, lastFailure: string) => {
    expect(result.status, result.text).toBe(429)
    expect(Number(result.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    expect(Number(result.headers["retry-after"])).toBeLessThanOrEqual(60)
    expect(result.json()).toMatchObject({
      success: false,
      message: `Too many failed authentications; the last failure: ${lastFailure}`,
      error_code: "RATE_LIMITED"
    })
  }
  /** `count` calls, `width` at a time: a throttled failure is held a second before its answer. */
  const inWaves = async (count: number, width: number, call: (index: number) => Promise<HttpResult>) => {
    const results: Array<HttpResult> = []
    for (let start = 0; start < count; start += width) {
      results.push(...await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, offset) => call(start + offset))))
    }
    return results
  }
  const throttleWarnings = (what: string) => lines.filter((line) => line.includes("failed authentications throttled") && line.includes(what))

  it(`400 wrong admin tokens from one address: ${AUTH_FAILURES_PER_ADDRESS_PER_MINUTE} answered 401, the rest 429 naming the cause; the right token from there still passes`, async () => {
    const wrong = { ...target, adminToken: "wrong-token" }
    await awayFromMinuteEdge()
    const results: Array<HttpResult> = []
    for (let i = 0; i < AUTH_FAILURES_PER_ADDRESS_PER_MINUTE; i++) results.push(await adminRequest(wrong, "GET", "/settings", undefined, "127.0.0.2"))
    results.push(...await inWaves(400 - AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, 40, () => adminRequest(wrong, "GET", "/settings", undefined, "127.0.0.2")))
    const answered = statuses(results)
    expect(answered.slice(0, AUTH_FAILURES_PER_ADDRESS_PER_MINUTE).every((status) => status === 401)).toBe(true)
    for (const result of results.slice(AUTH_FAILURES_PER_ADDRESS_PER_MINUTE)) expectThrottled(result, "A valid admin bearer token is required.")
    // The right token is never refused by the throttle, from the throttled address or any other.
    expect((await adminRequest(target, "GET", "/settings", undefined, "127.0.0.2")).status).toBe(200)
    expect((await adminRequest(target, "GET", "/settings", undefined, "127.0.0.3")).status).toBe(200)
    expect(throttleWarnings("127.0.0.2")).toHaveLength(1)
  }, 90_000)

  it(`200 bad signatures with a valid merchant key: ${AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE} answered 401, the rest 429; the merchant's good calls still pass`, async () => {
    const merchant = await payments.admin.merchants.create({ name: "Throttled", status: "approved" })
    const credentials = await payments.admin.credentials.issue(merchant.id, "sandbox")
    const call = (signature: string | undefined, localAddress: string) =>
      apiRequest(target, {
        path: "/api/v1/site-info",
        environment: "sandbox",
        merchantKey: credentials.merchant_key,
        apiKey: credentials.api_key,
        secret: credentials.client_secret,
        ...(signature !== undefined ? { signature } : {}),
        localAddress
      })
    await awayFromMinuteEdge()
    const results: Array<HttpResult> = []
    // Spread over addresses, as a distributed guesser would: the address threshold is not reached.
    for (let i = 0; i < AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE; i++) results.push(await call(`sha256=${"0".repeat(64)}`, `127.0.1.${1 + (i % 4)}`))
    results.push(...await inWaves(200 - AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE, 35, (i) => call(`sha256=${"0".repeat(64)}`, `127.0.1.${1 + (i % 4)}`)))
    const answered = statuses(results)
    expect(answered.slice(0, AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE).every((status) => status === 401)).toBe(true)
    for (const result of results.slice(AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE)) expectThrottled(result, "The request signature is invalid.")
    // The merchant's own correctly signed call is not refused.
    expect((await call(undefined, "127.0.1.9")).status).toBe(200)
    expect(throttleWarnings(credentials.merchant_key)).toHaveLength(1)
  }, 90_000)
})
