import { HttpApp } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Effect, Either, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { fromMillis, now, plusSeconds } from "../../core/shared/instant.js"
import { BillingSettingsRepository, defaultBillingSettings } from "../../core/subscriptions/billing-settings.js"
import { makeManualClock, type ManualClock } from "../../core/shared/manual-clock.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { SchedulerLease } from "../../core/subscriptions/scheduler-lease.js"
import { runOnce, tick, type TickReport } from "../../core/subscriptions/scheduler.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"

type Json = Record<string, any>
const DAY_PLUS_ONE = 86_400 + 1
const START = Date.UTC(2030, 4, 1, 12, 0, 0)
// The store row every host's runOnce takes (core/subscriptions/scheduler.ts).
const LEASE_NAME = "subscription-scheduler"

/** One kit host: its own runtime, pool and business clock, on the shared store. */
const startHost = async (store: StoreConfig, batchSize: number, clock: ManualClock) => {
  const runtime: ManagedRuntime.ManagedRuntime<any, any> = ManagedRuntime.make(kitLayer(testKitConfig(store, {
    manualClock: clock,
    scheduler: { enabled: false, batchSize },
    settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
    webhooks: { timeoutMs: 2_000, retryDelaysMillis: [], allowPrivateTargets: true, pollIntervalMillis: 1_000 }
  })))
  const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(clock.clock), Logger.withMinimumLogLevel(LogLevel.Warning)))
  const onClock = <A>(effect: Effect.Effect<A, any, any>) => runtime.runPromise(Effect.withClock(effect, clock.clock)) as Promise<A>
  return {
    runtime, clock, handler, onClock,
    runOnce: () => onClock(Effect.either(runOnce)),
    tick: (size: number) => onClock(tick(size)) as Promise<TickReport>,
    query: (run: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<any>, any>) => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, run)) as Promise<Array<Json>>,
    advance: (seconds: number) => runtime.runPromise(clock.advance(seconds)),
    adminRun: async () => {
      const response = await handler(new Request("http://kit.test/admin/v1/scheduler/run", { method: "POST", headers: { authorization: "Bearer admin-token" } }))
      return { status: response.status, retryAfter: response.headers.get("retry-after"), json: (await response.json()) as Json }
    }
  }
}
type Host = Awaited<ReturnType<typeof startHost>>

/**
 * Spec 4.10 at the edges of one host and across hosts: the batch limit, runs that never overlap
 * (lease), exactly one invoice per subscription and period when hosts tick at once (row lock), and
 * the create races of 4.5 (Idempotency-Key, duplicate external_reference). `twoHosts` (PostgreSQL)
 * adds two more hosts on the same database, each on its own manual clock set to the same instant.
 * Not covered: a 503 answer is never stored for replay, because nothing on the create path can
 * honestly produce one here (an invoice sequence race cannot happen under the subscription lock).
 */
export const subscriptionSchedulerSuite = (name: string, store: () => StoreConfig, options: { readonly twoHosts?: boolean } = {}) =>
  describe(`subscription scheduler across hosts: ${name}`, () => {
    let a: Host
    let others: Array<Host> = []
    let caller: TestCaller

    beforeAll(async () => {
      a = await startHost(store(), 2, makeManualClock(START))
      caller = await a.runtime.runPromise(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Scheduler shop", status: "approved" })
        // This suite counts renewals per run: its past_due subscriptions must not wake for dunning
        // steps meanwhile, so their campaigns send no reminder and end only after 60 days.
        yield* (yield* BillingSettingsRepository).put(merchant.id, { ...defaultBillingSettings, reminderDays: [], graceDays: 60 }, yield* now)
        yield* replaceCurrencies(merchant.id, ["USD"])
        yield* createWallet(merchant.id, "USD", "sandbox")
        yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `sched${merchant.id}`, type: "automatic", active: true })
        const issued = yield* issueCredentials(merchant.id, "sandbox")
        return { environment: "sandbox" as const, merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret }
      }))
      if (options.twoHosts === true) {
        // Two months behind host a: whatever a's cases leave due is not due yet on these clocks.
        const earlier = START - 60 * 86_400_000
        others = [await startHost(store(), 5, makeManualClock(earlier)), await startHost(store(), 5, makeManualClock(earlier))]
      }
    })
    afterAll(() => Promise.all([a, ...others].map((host) => host.runtime.dispose())))

    const call = async (host: Host, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await host.handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body), headers))
      return { status: response.status, replayed: response.headers.get("idempotent-replayed"), json: (await response.json()) as Json }
    }
    const subscriptionBody = (reference: string) => ({
      external_reference: reference, billing_cycle: "daily", payment_amount: "5.00", currency_code: "USD",
      customer_email: "payer@example.com", success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel", ipn_url: "http://127.0.0.1:9/ipn"
    })
    const pay = async (host: Host, trxId: string) => {
      const paid = await call(host, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect([paid.status, paid.json["status"]]).toEqual([200, "success"])
    }
    /** `count` daily subscriptions whose first period is paid; the host's clock still inside it. */
    const paidSubscriptions = async (host: Host, count: number, tag: string) => {
      const ids: Array<string> = []
      for (let i = 0; i < count; i++) {
        const made = await call(host, "POST", "/api/v1/subscriptions", subscriptionBody(`${tag}-${i}`))
        expect(made.status).toBe(201)
        await pay(host, made.json["data"]["latest_invoice"]["trx_id"])
        ids.push(made.json["data"]["id"])
      }
      return ids
    }
    const subscriptionRows = (ids: ReadonlyArray<string>) =>
      a.query((sql) => sql`SELECT id, status FROM subscriptions WHERE ${sql.in("id", ids)}`)
    const countByReference = (reference: string) =>
      a.query((sql) => sql`SELECT COUNT(*) AS n FROM subscriptions WHERE external_reference = ${reference}`).then((rows) => Number(rows[0]!["n"]))

    it("a run processes at most the host's batch size: 5 due with batch 2 are 2, 2, 1, then 0", async () => {
      const ids = await paidSubscriptions(a, 5, "batch")
      await a.advance(DAY_PLUS_ONE)
      const processed: Array<number> = []
      for (let run = 0; run < 4; run++) {
        const answer = await a.adminRun()
        expect(answer.status).toBe(200)
        expect(answer.json["data"]["processed"]).toBe(answer.json["data"]["past_due"])
        processed.push(answer.json["data"]["processed"])
      }
      expect(processed).toEqual([2, 2, 1, 0])
      expect((await subscriptionRows(ids)).map((row) => row["status"])).toEqual(Array(5).fill("past_due"))
    })

    it("runs never overlap: a concurrent run is refused (409 over HTTP, SchedulerBusy in Effect) until the lease is released", async () => {
      await paidSubscriptions(a, 4, "overlap")
      await a.advance(DAY_PLUS_ONE)
      // Two calls at once on one host: one runs its batch, the other is refused while it holds the lease.
      const pair = await Promise.all([a.adminRun(), a.adminRun()])
      expect(pair.map((answer) => answer.status).sort()).toEqual([200, 409])
      const refused = pair.find((answer) => answer.status === 409)!
      expect(refused.json).toMatchObject({ success: false, error_code: "INVALID_STATE" })
      expect(refused.retryAfter).toBe("5")
      expect(pair.find((answer) => answer.status === 200)!.json["data"]).toMatchObject({ processed: 2, past_due: 2 })

      const effects = await Promise.all([a.runOnce(), a.runOnce()])
      const ran = effects.filter(Either.isRight)
      expect(ran.map((report) => report.right.processed)).toEqual([2])
      expect(effects.filter(Either.isLeft).map((busy) => busy.left._tag)).toEqual(["SchedulerBusy"])

      // Another host holding the lease (its row in the store) refuses both ways; its release lets the next run in.
      const realNow = fromMillis(Date.now())
      const lease = (effect: (lease: SchedulerLease["Type"]) => Effect.Effect<any, any>) => a.runtime.runPromise(Effect.flatMap(SchedulerLease, effect))
      expect(await lease((l) => l.acquire(LEASE_NAME, "another-host", realNow, plusSeconds(realNow, 60)))).toBe(true)
      expect((await a.adminRun()).status).toBe(409)
      const busy = await a.runOnce()
      expect(Either.isLeft(busy) && busy.left._tag).toBe("SchedulerBusy")
      await lease((l) => l.release(LEASE_NAME, "another-host"))
      expect(await a.adminRun()).toMatchObject({ status: 200, json: { data: { processed: 0 } } })
    })

    it("8 concurrent identical creates with one Idempotency-Key make one subscription; the rest replay it or are in flight", async () => {
      const hosts = others.length > 0 ? others : [a]
      const body = subscriptionBody("idem-race")
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        call(hosts[i % hosts.length]!, "POST", "/api/v1/subscriptions", body, { "idempotency-key": "create-race-key" })))
      expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true)
      expect(answers.filter((answer) => answer.status === 201 && answer.replayed === null)).toHaveLength(1)
      const created = answers.filter((answer) => answer.status === 201)
      expect(new Set(created.map((answer) => answer.json["data"]["id"])).size).toBe(1)
      for (const inFlight of answers.filter((answer) => answer.status === 409)) expect(inFlight.json["error_code"]).toBe("IDEMPOTENCY_CONFLICT")
      expect(await countByReference("idem-race")).toBe(1)
      const replay = await call(hosts[0]!, "POST", "/api/v1/subscriptions", body, { "idempotency-key": "create-race-key" })
      expect([replay.status, replay.replayed, replay.json["data"]["id"]]).toEqual([201, "true", created[0]!.json["data"]["id"]])
    })

    it("8 concurrent creates of one external_reference without a key: one 201, seven 409 DUPLICATE_REFERENCE", async () => {
      const hosts = others.length > 0 ? others : [a]
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) =>
        call(hosts[i % hosts.length]!, "POST", "/api/v1/subscriptions", subscriptionBody("ref-race"))))
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409])
      expect(answers.filter((answer) => answer.status === 409).every((answer) => answer.json["error_code"] === "DUPLICATE_REFERENCE")).toBe(true)
      expect(await countByReference("ref-race")).toBe(1)
    })

    if (options.twoHosts === true) {
      it("two hosts ticking at once, with the lease and without it: one invoice per subscription and period, none lost", async () => {
        const [b1, b2] = others as [Host, Host]
        const ids = await paidSubscriptions(b1, 30, "two-hosts")
        const invoiceCounts = () =>
          b1.query((sql) => sql`SELECT subscription_id, period_start, COUNT(*) AS n FROM subscription_invoices
            WHERE ${sql.in("subscription_id", ids)} GROUP BY subscription_id, period_start`)
        const advanceBoth = () => Promise.all([b1.advance(DAY_PLUS_ONE), b2.advance(DAY_PLUS_ONE)])
        const total = (reports: ReadonlyArray<TickReport>, field: keyof TickReport) => reports.reduce((sum, report) => sum + report[field], 0)

        // Period 2 through runOnce: the lease lets one host run at a time, so no subscription is even looked at twice.
        await advanceBoth()
        const leased: Array<TickReport> = []
        for (let round = 0; round < 20; round++) {
          for (const outcome of await Promise.all([b1.runOnce(), b2.runOnce()])) {
            if (Either.isRight(outcome)) leased.push(outcome.right)
            else expect(outcome.left._tag).toBe("SchedulerBusy")
          }
        }
        expect([total(leased, "pastDue"), total(leased, "processed"), total(leased, "failed")]).toEqual([30, 30, 0])

        // Period 3 through tick itself, no lease: both hosts pick the same rows; the row lock alone decides.
        const open = await b1.query((sql) => sql`SELECT trx_id FROM subscription_invoices WHERE ${sql.in("subscription_id", ids)} AND status = 'pending'`)
        expect(open).toHaveLength(30)
        for (const row of open) await pay(b1, row["trx_id"])
        await advanceBoth()
        const unleased: Array<TickReport> = []
        for (let round = 0; round < 20; round++) unleased.push(...await Promise.all([b1.tick(5), b2.tick(5)]))
        expect([total(unleased, "pastDue"), total(unleased, "failed")]).toEqual([30, 0])

        const counts = await invoiceCounts()
        expect(counts).toHaveLength(90)
        expect(counts.every((row) => Number(row["n"]) === 1)).toBe(true)
        expect((await subscriptionRows(ids)).every((row) => row["status"] === "past_due")).toBe(true)
      }, 120_000)
    }
  })
