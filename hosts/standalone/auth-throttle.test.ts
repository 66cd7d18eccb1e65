import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { adminRequest, apiRequest, type HttpResult, rawRequest, type Target } from "../../conformance/http/signing.js"
import { AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE } from "../../core/rate-limit/auth-throttle.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { startHost } from "../../testing/hosts/child-hosts.js"

const ADMIN_TOKEN = "auth-throttle-admin-token"
const PROXY = "127.0.0.10"
const TIMESTAMP_MISSING = "The X-Timestamp header is required."

/** The counts are per wall-clock minute: a burst starts well inside one, so it is counted whole. */
const awayFromMinuteEdge = async () => {
  const intoMinute = Date.now() % 60_000
  if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute))
}

/** `count` calls, `width` at a time (a throttled failure is held a second before its answer). */
const inWaves = async (count: number, width: number, call: (index: number) => Promise<HttpResult>) => {
  const results: Array<HttpResult> = []
  for (let start = 0; start < count; start += width) {
    results.push(...await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, offset) => call(start + offset))))
  }
  return results
}

/**
 * The built standalone host behind a reverse proxy (TRUSTED_PROXIES): the failed-authentication
 * throttle refuses only requests that fail anyway, never a correctly authenticated one from the same
 * address, keeps the cause in its 429, and counts clients by the forwarding header only when the
 * peer is a trusted proxy.
 */
describe("standalone host: failed authentications are throttled without locking out good clients", () => {
  const scratch = childHostSuite("mp-auth-throttle-", { receiver: false })

  const setUp = async () => {
    const host = await startHost(join(scratch(), "data"), {
      ADMIN_TOKEN,
      DEMO: "false",
      RATE_LIMIT_PER_MINUTE: "1000000",
      LOG_LEVEL: "warn",
      TRUSTED_PROXIES: `${PROXY}, 10.0.0.0/8`
    })
    const target: Target = { baseUrl: host.url, adminToken: ADMIN_TOKEN }
    const shop = async (name: string) => {
      const merchant = (await adminRequest(target, "POST", "/merchants", { name, status: "approved" }, "127.0.0.3")).json() as { id: number }
      return (await adminRequest(target, "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" }, "127.0.0.3")).json() as {
        merchant_key: string; api_key: string; client_secret: string
      }
    }
    return { host, target, shop }
  }

  it("300 failing calls from one address: 429 naming the cause past the threshold, while a good merchant and the admin there keep getting 200", async () => {
    const { target, shop } = await setUp()
    const misconfigured = await shop("Misconfigured shop")
    const good = await shop("Good shop")
    const from = "127.0.0.2"
    const call = (credentials: typeof good, timestamp?: null) =>
      apiRequest(target, {
        path: "/api/v1/site-info",
        environment: "sandbox",
        merchantKey: credentials.merchant_key,
        apiKey: credentials.api_key,
        secret: credentials.client_secret,
        ...(timestamp === null ? { timestamp: null } : {}),
        localAddress: from
      })
    await awayFromMinuteEdge()
    const bad: Array<HttpResult> = []
    const goods: Array<HttpResult> = []
    for (let wave = 0; wave < 10; wave++) {
      bad.push(...await inWaves(30, 30, () => call(misconfigured, null)))
      goods.push(await call(good), await adminRequest(target, "GET", "/settings", undefined, from))
    }
    expect(bad).toHaveLength(300)
    for (const result of goods) expect(result.status, result.text).toBe(200)
    const statuses = bad.map((result) => result.status)
    // Past the merchant key's threshold (and then the address's), every failure is a 429 with its cause.
    expect(statuses.filter((status) => status === 401)).toHaveLength(AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE)
    expect(statuses.filter((status) => status === 429)).toHaveLength(300 - AUTH_FAILURES_PER_MERCHANT_KEY_PER_MINUTE)
    for (const result of bad.filter((result) => result.status === 429)) {
      expect(result.json()).toMatchObject({
        success: false,
        error_code: "RATE_LIMITED",
        message: `Too many failed authentications; the last failure: ${TIMESTAMP_MISSING}`,
        errors: { "X-Timestamp": [TIMESTAMP_MISSING] }
      })
      expect(Number(result.headers["retry-after"])).toBeGreaterThanOrEqual(1)
    }
    // The address is past its own threshold now, and its good calls still pass; its wrong admin
    // tokens are answered 429 naming theirs, a second later: a guesser waiting on answers is slowed.
    expect((await call(good)).status).toBe(200)
    expect((await adminRequest(target, "GET", "/settings", undefined, from)).status).toBe(200)
    const started = Date.now()
    const guess = await adminRequest({ ...target, adminToken: "guess" }, "GET", "/settings", undefined, from)
    expect(guess.status, guess.text).toBe(429)
    expect(guess.json().message).toBe("Too many failed authentications; the last failure: A valid admin bearer token is required.")
    expect(Date.now() - started).toBeGreaterThanOrEqual(900)
  }, 240_000)

  it("counts a trusted proxy's clients by X-Forwarded-For (or Forwarded), and anyone else by the socket's address", async () => {
    const { target } = await setUp()
    const wrongToken = (localAddress: string, headers: Readonly<Record<string, string>> = {}) =>
      rawRequest(target, { method: "GET", path: "/admin/v1/settings", headers: { authorization: "Bearer wrong", ...headers }, localAddress })
    const auditedFrom = async (localAddress: string, headers: Readonly<Record<string, string>>) => {
      const created = await rawRequest(target, {
        method: "POST",
        path: "/admin/v1/merchants",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...headers },
        body: JSON.stringify({ name: "Audited" }),
        localAddress
      })
      expect(created.status, created.text).toBe(201)
      const entries = (await adminRequest(target, "GET", `/audit?merchant_id=${(created.json() as { id: number }).id}`)).json().data
      return entries[0].source_address as string
    }
    // Through the proxy, the nearest hop it appended is the client; what the client wrote further left is not believed.
    expect(await auditedFrom(PROXY, { "x-forwarded-for": "198.51.100.66, 203.0.113.9" })).toBe("203.0.113.9")
    expect(await auditedFrom(PROXY, { "x-forwarded-for": "203.0.113.9, 10.1.2.3" })).toBe("203.0.113.9")
    expect(await auditedFrom(PROXY, { forwarded: "for=198.51.100.66, for=\"[2001:db8::7]:4711\";proto=https" })).toBe("2001:db8::7")
    // From anyone else, the headers are ignored.
    expect(await auditedFrom("127.0.0.4", { "x-forwarded-for": "203.0.113.9", forwarded: "for=203.0.113.9" })).toBe("127.0.0.4")

    await awayFromMinuteEdge()
    // One client behind the proxy fails past the address threshold: only that client is throttled.
    const guesser = { "x-forwarded-for": "203.0.113.50" }
    const burst = await inWaves(AUTH_FAILURES_PER_ADDRESS_PER_MINUTE, 40, () => wrongToken(PROXY, guesser))
    expect(burst.every((result) => result.status === 401)).toBe(true)
    expect((await wrongToken(PROXY, guesser)).status).toBe(429)
    expect((await wrongToken(PROXY, { "x-forwarded-for": "203.0.113.51" })).status).toBe(401)
    // A client that forges the header without the proxy is counted by its own address (not yet throttled).
    expect((await wrongToken("127.0.0.5", guesser)).status).toBe(401)
  }, 240_000)
})
