import { HttpApp } from "@effect/platform"
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { purgeOldRequestLogs } from "../../core/request-logs/request-log-purger.js"
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
      for (let tries = 0; tries < 100; tries++) {
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
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect((await logs(shop, "?limit=100")).body.data.map((entry: any) => entry.path)).not.toContain(LOGS)
    })
  })
