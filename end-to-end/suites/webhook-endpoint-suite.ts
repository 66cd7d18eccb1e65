import { HttpApp } from "@effect/platform"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { createMerchant, issueCredentials } from "../../core/merchants/merchant-admin.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { MAX_WEBHOOK_ENDPOINTS } from "../../core/webhooks/webhook-endpoint.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

const PATH = "/api/v1/webhook-endpoints"
// A public address written as such: checked without a lookup, so the suite needs no DNS.
const PUBLIC = "https://93.184.216.34"

/** Webhook endpoints through the whole HTTP app, signed as a merchant calls them, over a real store that refuses private targets. */
export const webhookEndpointSuite = (name: string, store: () => StoreConfig) =>
  describe(`webhook endpoints over HTTP: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let shop: TestCaller
    let shopLive: TestCaller
    let other: TestCaller

    const caller = () =>
      runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Endpoint shop", status: "approved" })
        const sandbox = yield* issueCredentials(merchant.id, "sandbox")
        const production = yield* issueCredentials(merchant.id, "production")
        return {
          sandbox: { environment: "sandbox" as const, merchantKey: sandbox.merchantKey, apiKey: sandbox.apiKey, clientSecret: sandbox.clientSecret },
          production: { environment: "production" as const, merchantKey: production.merchantKey, apiKey: production.apiKey, clientSecret: production.clientSecret }
        }
      }) as Effect.Effect<{ sandbox: TestCaller; production: TestCaller }, unknown, never>)

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 } })))
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))
      const mine = await caller()
      shop = mine.sandbox
      shopLive = mine.production
      other = (await caller()).sandbox
    })
    afterAll(() => runtime.dispose())

    const call = async (who: TestCaller, method: string, path: string, body?: object) => {
      const response = await handler(signedRequest(who, method, path, body === undefined ? "" : JSON.stringify(body)))
      const text = await response.text()
      return { status: response.status, text, body: JSON.parse(text) as any }
    }
    const add = (who: TestCaller, body: object) => call(who, "POST", PATH, body)

    it("adds an endpoint: 201 enabled, listed and read by id, in the caller's environment only", async () => {
      const created = await add(shop, { url: `${PUBLIC}/hooks`, events: ["payout.*", "payment.completed", "payout.*"], description: "Accounting" })
      expect(created.status, created.text).toBe(201)
      expect(created.body.data).toEqual({
        id: expect.stringMatching(/^we_[0-9a-f]{32}$/),
        url: `${PUBLIC}/hooks`,
        events: ["payout.*", "payment.completed"],
        description: "Accounting",
        status: "enabled",
        environment: "sandbox",
        created_at: expect.stringMatching(/Z$/),
        updated_at: created.body.data.created_at
      })
      expect((await call(shop, "GET", PATH)).body.data).toEqual([created.body.data])
      expect((await call(shop, "GET", `${PATH}/${created.body.data.id}`)).body.data).toEqual(created.body.data)
      expect((await call(shopLive, "GET", PATH)).body.data).toEqual([])
    })

    it("refuses a url the ipn_url rules refuse, in their words, and unknown event types, naming each", async () => {
      const loopback = await add(shop, { url: "https://127.0.0.1/hooks", events: ["*"] })
      expect([loopback.status, loopback.body.error_code]).toEqual([422, "VALIDATION_FAILED"])
      expect(loopback.body.errors).toEqual({ url: [expect.stringMatching(/^The url field must be an HTTPS address that resolves to a public address; refused: .+\.$/)] })
      const plain = await add(shop, { url: "http://93.184.216.34/hooks", events: ["*"] })
      expect(plain.body.errors).toEqual({ url: ["The url field must be an HTTPS address."] })
      const malformed = await add(shop, { url: "hooks.example", events: ["*"] })
      expect(malformed.body.errors).toEqual({ url: ["The url field must be a valid URL."] })

      const unknown = await add(shop, { url: `${PUBLIC}/hooks`, events: ["payout.paid", "payout.sent", "refund.*"] })
      expect([unknown.status, Object.keys(unknown.body.errors)]).toEqual([422, ["events"]])
      expect(unknown.body.errors.events).toEqual([
        expect.stringMatching(/^"payout\.sent" is not a known event type: give one of .*payout\.paid.*, or \*\.$/),
        expect.stringMatching(/^"refund\.\*" is not a known event type/)
      ])
      expect((await add(shop, { url: `${PUBLIC}/hooks`, events: [] })).body.errors).toEqual({ events: ["The events field must name at least one event type."] })
      expect((await add(shop, { url: `${PUBLIC}/hooks`, events: "payout.*" })).body.errors).toEqual({ events: ["The events field must be an array of strings."] })
      // Every field's problem at once, the url's rule included.
      const both = await add(shop, { url: "https://10.0.0.1/", events: "nope" })
      expect(Object.keys(both.body.errors).sort()).toEqual(["events", "url"])
      expect((await call(shop, "GET", PATH)).body.data).toHaveLength(1)
    })

    it("changes what is given: status, events, url and description, under the same rules", async () => {
      const id = (await add(shop, { url: `${PUBLIC}/change`, events: ["payout.paid"], description: "note" })).body.data.id as string
      const disabled = await call(shop, "POST", `${PATH}/${id}`, { status: "disabled" })
      expect([disabled.status, disabled.body.data.status, disabled.body.data.events, disabled.body.data.description]).toEqual([200, "disabled", ["payout.paid"], "note"])
      const changed = await call(shop, "POST", `${PATH}/${id}`, { events: ["dispute.*", "balance.available"], url: `${PUBLIC}/moved`, description: "", status: "enabled" })
      expect(changed.body.data).toMatchObject({ events: ["dispute.*", "balance.available"], url: `${PUBLIC}/moved`, description: null, status: "enabled" })
      const refused = await call(shop, "POST", `${PATH}/${id}`, { url: "https://169.254.169.254/", events: ["payout.nope"], status: "paused" })
      expect([refused.status, Object.keys(refused.body.errors).sort()]).toEqual([422, ["events", "status", "url"]])
      expect((await call(shop, "GET", `${PATH}/${id}`)).body.data).toEqual(changed.body.data)
    })

    it("answers another merchant's or environment's endpoint as not found, and deletes once", async () => {
      const id = (await add(shop, { url: `${PUBLIC}/mine`, events: ["*"] })).body.data.id as string
      for (const [who, method, body] of [[other, "GET"], [other, "POST", { status: "disabled" }], [other, "DELETE"], [shopLive, "GET"], [shopLive, "DELETE"]] as const) {
        const refused = await call(who, method, `${PATH}/${id}`, body)
        expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([404, "NOT_FOUND", "Webhook endpoint not found."])
      }
      expect((await call(shop, "GET", `${PATH}/${id}`)).body.data.status).toBe("enabled")
      expect(await call(shop, "DELETE", `${PATH}/${id}`)).toMatchObject({ status: 200, body: { data: { id, deleted: true } } })
      expect((await call(shop, "DELETE", `${PATH}/${id}`)).status).toBe(404)
      expect((await call(shop, "GET", PATH)).body.data.map((row: { id: string }) => row.id)).not.toContain(id)
    })

    it(`keeps at most ${MAX_WEBHOOK_ENDPOINTS} per merchant and environment, with a clear 422`, async () => {
      const fresh = (await caller()).sandbox
      for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) expect((await add(fresh, { url: `${PUBLIC}/${i}`, events: ["*"] })).status).toBe(201)
      const refused = await add(fresh, { url: `${PUBLIC}/one-more`, events: ["*"] })
      expect([refused.status, refused.body.error_code, refused.body.message]).toEqual([422, "LIMIT_REACHED", "The webhook endpoint limit is reached."])
      expect(refused.body.errors.webhook_endpoints).toEqual([
        `A merchant keeps at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints in each environment: delete one before adding another.`
      ])
    }, 60_000)
  })
