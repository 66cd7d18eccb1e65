import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../adapters/http/app.js"
import { createGateway } from "../core/gateways/gateway-admin.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../core/merchants/merchant-admin.js"
import { makeManualClock } from "../core/shared/manual-clock.js"
import { Instant, now } from "../core/shared/instant.js"
import { SubscriptionRepository } from "../core/subscriptions/subscription-repository.js"
import { defaultSiteSettings } from "../core/settings/site-settings.js"
import { TestClockRepository } from "../core/subscriptions/test-clock.js"
import { createWallet } from "../core/wallets/wallet-admin.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../testing/http/signed-client.js"
import { testKitConfig } from "./suites/test-kit-config.js"

type Json = Record<string, any>

// The rules around the must-show (test-clock-year): lifecycle calls on a clock's subscription run at
// the clock's time, a busy clock refuses, a run that cannot finish stops as internal_failure instead
// of looping, delete ends the open checkouts, and the limits and the sandbox rule.
describe("test clock rules (SQLite)", () => {
  const manual = makeManualClock(Date.UTC(2027, 5, 1, 8, 0, 0))
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let handler: (request: Request) => Promise<Response>
  let caller: TestCaller
  let production: TestCaller

  beforeAll(async () => {
    const directory = mkdtempSync(join(tmpdir(), "mp-test-clock-rules-"))
    runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: join(directory, "store.db") }, {
      manualClock: manual,
      settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
      webhooks: { timeoutMs: 5_000, retryDelaysMillis: [500], allowPrivateTargets: true, pollIntervalMillis: 25 }
    })))
    const made = await runtime.runPromise(Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Rules shop", status: "approved" })
      yield* replaceCurrencies(merchant.id, ["USD"])
      yield* createWallet(merchant.id, "USD", "sandbox")
      yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `rules${merchant.id}`, type: "automatic", active: true })
      const sandbox = yield* issueCredentials(merchant.id, "sandbox")
      const live = yield* issueCredentials(merchant.id, "production")
      return { merchant, sandbox, live }
    }) as Effect.Effect<any>)
    caller = { environment: "sandbox", merchantKey: made.sandbox.merchantKey, apiKey: made.sandbox.apiKey, clientSecret: made.sandbox.clientSecret }
    production = { environment: "production", merchantKey: made.live.merchantKey, apiKey: made.live.apiKey, clientSecret: made.live.clientSecret }
    handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Error)))
  })
  afterAll(async () => {
    await runtime.dispose()
  })

  const callAs = async (who: TestCaller, method: string, path: string, body: unknown = undefined) => {
    const response = await handler(signedRequest(who, method, path, body === undefined ? "" : JSON.stringify(body)))
    return { status: response.status, json: (await response.json()) as Json }
  }
  const call = (method: string, path: string, body: unknown = undefined) => callAs(caller, method, path, body)
  let references = 0
  const subscribe = (extra: Json, who: TestCaller = caller) =>
    callAs(who, "POST", "/api/v1/subscriptions", {
      external_reference: `rules-${++references}`,
      billing_cycle: "monthly",
      payment_amount: "10.00",
      currency_code: "USD",
      customer_email: "payer@example.com",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: "http://127.0.0.1:9/ipn",
      ...extra
    })
  const newClock = async (frozenTime: string) => {
    const made = await call("POST", "/api/v1/test-clocks", { frozen_time: frozenTime })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    return made.json["data"]["id"] as string
  }
  const setStatus = (id: string, status: "ready" | "advancing") =>
    runtime.runPromise(Effect.flatMap(TestClockRepository, (clocks) => Effect.flatMap(now, (at) => clocks.update(id, ["ready", "advancing", "internal_failure"], { status }, at))))

  it("cancel and renew on a clock's subscription happen at the clock's time", async () => {
    const clockId = await newClock("2028-03-10T10:00:00Z")
    const created = await subscribe({ test_clock: clockId })
    expect(created.status).toBe(201)
    const id = created.json["data"]["id"]
    expect(created.json["data"]).toMatchObject({ starts_at: "2028-03-10T10:00:00.000000Z", latest_invoice: { period_start: "2028-03-10T10:00:00.000000Z" } })
    // The invoice's checkout is timed on the clock's time too.
    expect(created.json["data"]["latest_invoice"]["checkout_expires_at"]).toBe("2028-03-10T11:00:00.000000Z")
    const renewed = await call("POST", `/api/v1/subscriptions/${id}/renew`, { force_new: true })
    expect(renewed.json["data"]["latest_invoice"]).toMatchObject({ sequence: 2, created_at: "2028-03-10T10:00:00.000000Z" })
    const cancelled = await call("POST", `/api/v1/subscriptions/${id}/cancel`, { at_period_end: false })
    expect(cancelled.json["data"]).toMatchObject({ status: "cancelled", cancelled_at: "2028-03-10T10:00:00.000000Z" })
  })

  it("a clock being advanced refuses another advance, a delete and a new subscription (409)", async () => {
    const clockId = await newClock("2028-03-10T10:00:00Z")
    await setStatus(clockId, "advancing")
    const advance = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: "2028-04-10T10:00:00Z" })
    expect(advance.status).toBe(409)
    expect(advance.json["error_code"] ?? advance.json["code"] ?? advance.json).toBeDefined()
    expect((await call("DELETE", `/api/v1/test-clocks/${clockId}`)).status).toBe(409)
    expect((await subscribe({ test_clock: clockId })).status).toBe(409)
    await setStatus(clockId, "ready")
    const moved = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: "2028-04-10T10:00:00Z" })
    expect(moved.json["data"]).toMatchObject({ status: "ready", frozen_time: "2028-04-10T10:00:00.000000Z" })
  })

  it("a run whose due work moves nothing stops as internal_failure instead of looping, short of the target", async () => {
    const clockId = await newClock("2028-05-01T00:00:00Z")
    const created = await subscribe({ test_clock: clockId })
    expect(created.status).toBe(201)
    const id = created.json["data"]["id"] as string
    // A wake time with no work behind it (what a scheduling bug would leave): each tick finds nothing to do.
    const wakeAt = (at: bigint | null) =>
      runtime.runPromise(Effect.flatMap(SubscriptionRepository, (repo) =>
        Effect.flatMap(now, (stamp) => repo.transition(id, ["pending"], { wakeAt: at === null ? null : Instant(at) }, stamp))))
    await wakeAt(BigInt(Date.parse("2028-05-02T00:00:00Z")) * 1000n)
    const advanced = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: "2028-06-01T00:00:00Z" })
    expect(advanced.status).toBe(200)
    // It stands where the run stopped (the stuck wake time), short of the target.
    expect(advanced.json["data"]).toMatchObject({ status: "internal_failure", frozen_time: "2028-05-02T00:00:00.000000Z" })
    // Advancing again retries from internal_failure; with the queue sound it finishes.
    await wakeAt(null)
    const retried = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: "2028-06-01T00:00:00Z" })
    expect(retried.json["data"]).toMatchObject({ status: "ready", frozen_time: "2028-06-01T00:00:00.000000Z" })
  })

  it("delete ends the open checkout of its subscriptions' invoices", async () => {
    const clockId = await newClock("2028-03-10T10:00:00Z")
    const created = await subscribe({ test_clock: clockId })
    const trxId = created.json["data"]["latest_invoice"]["trx_id"]
    expect((await call("DELETE", `/api/v1/test-clocks/${clockId}`)).status).toBe(200)
    const payment = await call("GET", `/api/v1/verify-payment/${trxId}`)
    // verify-payment's word for a payment that ended unpaid (the contract's statuses).
    expect(payment.json["status"]).toBe("failed")
    expect((await call("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })).status).not.toBe(200)
  })

  it("a clock holds at most 100 subscriptions", async () => {
    const clockId = await newClock("2028-03-10T10:00:00Z")
    for (let n = 0; n < 100; n++) expect((await subscribe({ test_clock: clockId, starts_at: "2028-04-01T00:00:00Z" })).status).toBe(201)
    const beyond = await subscribe({ test_clock: clockId })
    expect(beyond.status).toBe(422)
    expect(beyond.json["errors"]["test_clock"]).toEqual(["A test clock holds at most 100 subscriptions: use another clock."])
    // All hundred start in one advance, each at its due time.
    const advanced = await call("POST", `/api/v1/test-clocks/${clockId}/advance`, { frozen_time: "2028-04-02T00:00:00Z" })
    expect(advanced.json["data"]).toMatchObject({ status: "ready" })
  }, 60_000)

  it("sandbox only, and a merchant keeps at most 100 clocks", async () => {
    const live = await subscribe({ test_clock: "clock_anything" }, production)
    expect(live.status).toBe(422)
    expect(live.json["errors"]["test_clock"]).toEqual(["Test clocks are sandbox only: a production subscription lives on real time."])
    expect((await callAs(production, "GET", "/api/v1/test-clocks")).status).toBe(422)
    const unknown = await subscribe({ test_clock: "clock_missing" })
    expect(unknown.status).toBe(422)
    const existing = (await call("GET", "/api/v1/test-clocks")).json["data"].length as number
    for (let n = existing; n < 100; n++) await newClock("2028-01-01T00:00:00Z")
    const beyond = await call("POST", "/api/v1/test-clocks", { frozen_time: "2028-01-01T00:00:00Z" })
    expect(beyond.status).toBe(422)
    expect(beyond.json["errors"]["test_clocks"]).toBeDefined()
    expect((await call("POST", "/api/v1/test-clocks", { frozen_time: "2040-01-01T00:00:00Z" })).status).toBe(422)
  })
})
