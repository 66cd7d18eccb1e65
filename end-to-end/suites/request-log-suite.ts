import { HttpApp } from "@effect/platform"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { purgeOldRequestLogs } from "../../core/request-logs/request-log-purger.js"
import { GATHER_MILLIS } from "../../core/request-logs/request-log-writer.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

const LOGS = "/api/v1/request-logs"
const DAY = 86_400
const START = Date.UTC(2030, 4, 1, 12, 0, 0)
const CARD = "4111111111111111"

/**
 * Request logs through the whole HTTP app over a real store: calls kept with their bodies redacted,
 * the list's filters and pages, one merchant's log closed to others, the retention purge on business
 * time, and a store that cannot keep the log answering the call all the same.
 */
export const requestLogSuite = (name: string, store: () => StoreConfig) =>
  describe(`request logs over HTTP: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    const clock = makeManualClock(START)
    let shop: TestCaller
    let shopLive: TestCaller
    let other: TestCaller
    /** Makes calls only to learn when the log has caught up: its entries follow every earlier call's. */
    let marker: TestCaller

    const caller = () =>
      runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Logged shop", status: "approved" })
        yield* replaceCurrencies(merchant.id, ["USD"])
        const sandbox = yield* issueCredentials(merchant.id, "sandbox")
        const production = yield* issueCredentials(merchant.id, "production")
        return {
          sandbox: { environment: "sandbox" as const, merchantKey: sandbox.merchantKey, apiKey: sandbox.apiKey, clientSecret: sandbox.clientSecret },
          production: { environment: "production" as const, merchantKey: production.merchantKey, apiKey: production.apiKey, clientSecret: production.clientSecret }
        }
      }) as Effect.Effect<{ sandbox: TestCaller; production: TestCaller }, unknown, never>)

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        manualClock: clock,
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 }
      })))
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(clock.clock), Logger.withMinimumLogLevel(LogLevel.Error)))
      const mine = await caller()
      shop = mine.sandbox
      shopLive = mine.production
      other = (await caller()).sandbox
      marker = (await caller()).sandbox
    })
    afterAll(() => runtime.dispose())

    const call = async (who: TestCaller, method: string, path: string, body?: object, headers: Record<string, string> = {}) => {
      const response = await handler(signedRequest(who, method, path, body === undefined ? "" : JSON.stringify(body), headers))
      const text = await response.text()
      return { status: response.status, text, body: JSON.parse(text) as any, requestId: response.headers.get("x-request-id") }
    }
    const logs = (who: TestCaller, query = "") => call(who, "GET", `${LOGS}${query}`)
    /** The log is written after the answer: wait until the caller's newest entry is the one asked for. */
    const loggedAs = async (who: TestCaller, requestId: string | null) => {
      for (let tries = 0; tries < 250; tries++) {
        const found = (await logs(who, "?limit=100")).body.data.find((entry: any) => entry.request_id === requestId)
        if (found !== undefined) return found
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      throw new Error(`no log entry for ${requestId}`)
    }

    it("keeps a call with its method, path, status, key and bodies, secrets and card numbers redacted", async () => {
      const sent = await call(shop, "POST", "/api/v1/webhook-endpoints?note=1", {
        url: "http://93.184.216.34/hooks",
        events: ["*"],
        description: `card ${CARD}`,
        client_secret: "do-not-keep"
      }, { "idempotency-key": "key-1" })
      expect(sent.status).toBe(422)
      const entry = await loggedAs(shop, sent.requestId)
      expect(entry).toMatchObject({
        id: expect.stringMatching(/^rl_[0-9a-f]{32}$/),
        method: "POST",
        path: "/api/v1/webhook-endpoints?note=1",
        status: 422,
        duration_ms: expect.any(Number),
        idempotency_key: "key-1",
        error: { error_code: "VALIDATION_FAILED", message: sent.body.message },
        signature_check: null,
        created_at: "2030-05-01T12:00:00.000000Z"
      })
      expect(JSON.parse(entry.request_body)).toEqual({
        url: "http://93.184.216.34/hooks",
        events: ["*"],
        description: "card ************1111",
        client_secret: "[REDACTED]"
      })
      expect(entry.request_body).not.toContain(CARD)
      expect(JSON.parse(entry.response_body)).toMatchObject({ success: false, error_code: "VALIDATION_FAILED" })
    })

    it("does not keep reading the log itself", async () => {
      const read = await logs(shop)
      expect(read.status).toBe(200)
      // The log is written in order: once a later call (the marker's, leaving this log as it was) is in, the read would be too had it been kept.
      const later = await call(marker, "GET", "/api/v1/webhook-endpoints?after=read")
      await loggedAs(marker, later.requestId)
      expect((await logs(shop, "?limit=100")).body.data.map((entry: any) => entry.path)).not.toContain(LOGS)
    })

    it("filters by status (one code or a class), path prefix and time, and refuses a status it cannot read", async () => {
      const found = await call(shop, "GET", "/api/v1/webhook-endpoints")
      expect(found.status).toBe(200)
      await loggedAs(shop, found.requestId)
      const statuses = async (query: string) => (await logs(shop, query)).body.data.map((entry: any) => entry.status)
      expect(await statuses("?status=4xx")).toEqual([422])
      expect(await statuses("?status=422")).toEqual([422])
      expect(await statuses("?status=2xx")).toEqual([200])
      expect(await statuses("?status=5xx")).toEqual([])
      expect((await logs(shop, "?path=/api/v1/webhook-endpoints%3Fnote")).body.data.map((entry: any) => entry.path)).toEqual(["/api/v1/webhook-endpoints?note=1"])
      expect((await logs(shop, "?path=/api/v1/payments")).body.data).toEqual([])
      for (const bad of ["4x", "600", "abc"]) {
        const refused = await logs(shop, `?status=${bad}`)
        expect([refused.status, refused.body.error_code], refused.text).toEqual([422, "VALIDATION_FAILED"])
        expect(refused.body.errors).toEqual({ status: ["The status must be a status code such as 401 or a class such as 2xx, 4xx or 5xx."] })
      }
      const at = "2030-05-01T12:00:00Z"
      // Both calls so far were made at START, business time.
      expect((await logs(shop, `?from=${at}`)).body.data.length).toBe(2)
      expect((await logs(shop, `?to=${at}`)).body.data).toEqual([])
      const backwards = await logs(shop, `?from=${at}&to=2030-04-01T00:00:00Z`)
      expect([backwards.status, Object.keys(backwards.body.errors)]).toEqual([422, ["to"]])
    })

    it("pages newest first through next_cursor", async () => {
      // Business time stands still on a manual clock: calls of one instant have no order among them.
      for (const n of [1, 2, 3]) {
        await call(shop, "GET", `/api/v1/webhook-endpoints?page=${n}`)
        await runtime.runPromise(clock.advance(1))
      }
      const last = await call(shop, "GET", "/api/v1/webhook-endpoints?page=4")
      await loggedAs(shop, last.requestId)
      const paths: Array<string> = []
      let cursor: string | null = null
      do {
        const page: any = (await logs(shop, `?path=/api/v1/webhook-endpoints%3Fpage&limit=3${cursor === null ? "" : `&cursor=${cursor}`}`)).body
        paths.push(...page.data.map((entry: any) => entry.path))
        expect(page.has_more).toBe(page.next_cursor !== null)
        cursor = page.next_cursor
      } while (cursor !== null)
      expect(paths).toEqual([4, 3, 2, 1].map((n) => `/api/v1/webhook-endpoints?page=${n}`))
    })

    it("shows a merchant only its own calls, in the environment of its credentials", async () => {
      const mine = await call(shopLive, "GET", "/api/v1/webhook-endpoints?live=1")
      await loggedAs(shopLive, mine.requestId)
      expect((await logs(shopLive)).body.data.map((entry: any) => entry.path)).toEqual(["/api/v1/webhook-endpoints?live=1"])
      expect((await logs(shop)).body.data.map((entry: any) => entry.path)).not.toContain("/api/v1/webhook-endpoints?live=1")
      expect((await logs(other)).body.data).toEqual([])
    })

    it("puts the X-Request-Id in every error body, and logs the call under it", async () => {
      const refused = await logs(shop, "?status=bad")
      expect(refused.body.request_id).toBe(refused.requestId)
      const missing = await call(shop, "GET", "/api/v1/webhook-endpoints/we_00000000000000000000000000000000")
      expect([missing.status, missing.body.request_id]).toEqual([404, missing.requestId])
      expect((await loggedAs(shop, missing.requestId)).error).toEqual({ error_code: missing.body.error_code, message: missing.body.message })
      const unsigned = await handler(new Request(`http://kit.test${LOGS}`, { headers: { "x-request-id": "proxy-given.1" } }))
      expect([unsigned.status, unsigned.headers.get("x-request-id"), (await unsigned.json() as any).request_id]).toEqual([401, "proxy-given.1", "proxy-given.1"])
      const unrouted = await handler(new Request("http://kit.test/api/v1/nowhere"))
      expect((await unrouted.json() as any).request_id).toBe(unrouted.headers.get("x-request-id"))
    })

    it("keeps a call refused for its signature under the merchant its key names, with what was compared; an unknown key under no one", async () => {
      const forged = await call({ ...shop, clientSecret: "not-the-secret" }, "GET", "/api/v1/webhook-endpoints?forged=1")
      expect([forged.status, forged.body.error_code, forged.body.request_id]).toEqual([401, "INVALID_CREDENTIALS", forged.requestId])
      const entry = await loggedAs(shop, forged.requestId)
      expect(entry).toMatchObject({ status: 401, path: "/api/v1/webhook-endpoints?forged=1", error: { error_code: "INVALID_CREDENTIALS" } })
      expect(entry.signature_check).toEqual({ canonical: expect.any(String), cause: expect.any(String), explanation: expect.any(String) })
      expect(entry.signature_check.canonical).toContain("/api/v1/webhook-endpoints?forged=1")
      expect((await logs(shop, "?status=401")).body.data.map((logged: any) => logged.request_id)).toEqual([forged.requestId])
      const stranger = await call({ ...shop, merchantKey: "test_no-such-merchant-key" }, "GET", "/api/v1/webhook-endpoints?stranger=1")
      expect(stranger.status).toBe(401)
      const later = await call(marker, "GET", "/api/v1/webhook-endpoints?after=stranger")
      await loggedAs(marker, later.requestId)
      for (const who of [shop, other]) {
        expect((await logs(who, "?limit=100")).body.data.map((logged: any) => logged.path)).not.toContain("/api/v1/webhook-endpoints?stranger=1")
      }
    })

    it("answers a call signed without its query string 401, and its entry names the query string as the cause", async () => {
      // Signed over the path alone, as a client that forgets the query does, then sent with it.
      const signed = signedRequest(shop, "GET", "/api/v1/webhook-endpoints", "")
      const refused = await handler(new Request("http://kit.test/api/v1/webhook-endpoints?limit=5", { headers: signed.headers }))
      expect(refused.status).toBe(401)
      const entry = await loggedAs(shop, refused.headers.get("x-request-id"))
      expect(entry).toMatchObject({ status: 401, path: "/api/v1/webhook-endpoints?limit=5", signature_check: { cause: "query_string_missing" } })
      expect(entry.signature_check.explanation).toContain("query string")
      expect(entry.signature_check.canonical).toMatch(/^\d+\.GET\.\/api\/v1\/webhook-endpoints\?limit=5\.[0-9a-f]{64}$/)
    })

    it("keeps no answer that carries a bearer secret (a customer portal link), only the call", async () => {
      const link = await call(shop, "POST", "/api/v1/customer-portal-sessions", { customer_email: "ada@example.com", return_url: "https://shop.example/account" })
      expect(link.status, link.text).toBe(201)
      const entry = await loggedAs(shop, link.requestId)
      expect([entry.status, entry.response_body]).toEqual([201, null])
      expect(JSON.parse(entry.request_body)).toEqual({ customer_email: "ada@example.com", return_url: "https://shop.example/account" })
    })

    it("purges entries older than the retention, on business time", async () => {
      const before = (await logs(shop, "?limit=100")).body.data.length
      expect(before).toBeGreaterThan(0)
      await runtime.runPromise(clock.advance(10 * DAY))
      const recent = await call(shop, "GET", "/api/v1/webhook-endpoints?recent=1")
      await loggedAs(shop, recent.requestId)
      await runtime.runPromise(clock.advance(5 * DAY))
      const removed = await runtime.runPromise(Effect.withClock(purgeOldRequestLogs(14), clock.clock))
      expect(removed).toBeGreaterThanOrEqual(before)
      expect((await logs(shop, "?limit=100")).body.data.map((entry: any) => entry.path)).toEqual(["/api/v1/webhook-endpoints?recent=1"])
    })

    it("answers the call when the log cannot be written, and keeps logging once it can", async () => {
      const rename = (from: string, to: string) =>
        runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`ALTER TABLE ${from} RENAME TO ${to}`)))
      await rename("request_logs", "request_logs_away")
      try {
        const answered = await call(shop, "GET", "/api/v1/webhook-endpoints?while=away")
        expect(answered.status).toBe(200)
        // Long enough for the writer to have gathered and tried the batch, and failed.
        await new Promise((resolve) => setTimeout(resolve, GATHER_MILLIS + 500))
      } finally {
        await rename("request_logs_away", "request_logs")
      }
      const back = await call(shop, "GET", "/api/v1/webhook-endpoints?while=back")
      await loggedAs(shop, back.requestId)
      expect((await logs(shop, "?limit=100")).body.data.map((entry: any) => entry.path)).not.toContain("/api/v1/webhook-endpoints?while=away")
    })
  })
