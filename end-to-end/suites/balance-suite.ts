import { HttpApp } from "@effect/platform"
import { Effect, Either, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { runMoneyOutOnce } from "../../core/balances/money-out-scheduler.js"
import { reserveHoldAccount, walletAccount } from "../../core/ledger/account.js"
import type { Merchant } from "../../core/merchants/merchant.js"
import type { Environment } from "../../core/shared/environment.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import { toIsoString, plusSeconds, type Instant } from "../../core/shared/instant.js"
import { makeManualClock, type ManualClock } from "../../core/shared/manual-clock.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { adjustWallet, createWallet } from "../../core/wallets/wallet-admin.js"
import type { Wallet } from "../../core/wallets/wallet.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import type { TestCaller } from "../../testing/http/signed-client.js"
import { bankAccount, kitCalls } from "./payout-suite.js"
import { testKitConfig } from "./test-kit-config.js"

const DAY = 86_400
// A Wednesday, noon UTC.
const START = Date.UTC(2030, 4, 1, 12, 0, 0)

/** One kit host on the shared store, on its own manual business clock. */
const startHost = async (store: StoreConfig, clock: ManualClock) => {
  const runtime: ManagedRuntime.ManagedRuntime<any, any> = ManagedRuntime.make(kitLayer(testKitConfig(store, {
    manualClock: clock,
    scheduler: { enabled: false, batchSize: 100 },
    settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 }
  })))
  const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(clock.clock), Logger.withMinimumLogLevel(LogLevel.Error)))
  const run = <A>(effect: Effect.Effect<A, any, any>) => runtime.runPromise(Effect.withClock(effect, clock.clock)) as Promise<A>
  return {
    runtime, clock, run, calls: kitCalls(handler),
    moneyOut: () => run(Effect.either(runMoneyOutOnce)),
    advance: (seconds: number) => runtime.runPromise(clock.advance(seconds))
  }
}
type Host = Awaited<ReturnType<typeof startHost>>

interface Shop {
  readonly merchant: Merchant
  readonly caller: TestCaller
  readonly wallet: Wallet
}

/** An approved merchant of EUR without fees, with credentials and an empty EUR wallet in `environment` (sandbox unless said). */
const openShop = (name: string, environment: Environment = "sandbox") =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant({ name, status: "approved" })
    yield* replaceCurrencies(merchant.id, ["EUR"])
    const credentials = yield* issueCredentials(merchant.id, environment)
    const wallet = yield* createWallet(merchant.id, "EUR", environment)
    const caller: TestCaller = { environment, merchantKey: credentials.merchantKey, apiKey: credentials.apiKey, clientSecret: credentials.clientSecret }
    return { merchant, caller, wallet } satisfies Shop
  })

let references = 0
/** A payment of `amount` EUR in the shop's environment begun and paid now: its net credited to the shop's wallet. */
const pay = (shop: Shop, amount: string) =>
  Effect.gen(function*() {
    const session = yield* initiatePayment({ merchant: shop.merchant, environment: shop.caller.environment }, {
      amount: { kind: "string", value: amount },
      currency: "EUR",
      refTrx: `balances-${shop.merchant.id}-${++references}`,
      successRedirect: "https://shop.example/ok",
      cancelRedirect: "https://shop.example/cancel",
      ipnUrl: "https://shop.example/ipn",
      description: null,
      customerName: null,
      customerEmail: null,
      keywords: []
    })
    return yield* finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null })
  })

/**
 * Issue 35's balances on a real kit: the split of GET /api/v1/balances as time passes on the manual
 * clock (pending until the payout delay has passed, a reserve held and released after its days), the
 * payout request refused beyond what is available, and daily automatic payouts made once per day
 * however often, and (PostgreSQL) on however many hosts, the scheduler runs.
 */
export const balanceSuite = (name: string, store: () => StoreConfig, options: { readonly twoHosts?: boolean } = {}) =>
  describe(`balances and automatic payouts: ${name}`, () => {
    let a: Host
    let b: Host | undefined
    beforeAll(async () => {
      a = await startHost(store(), makeManualClock(START))
      if (options.twoHosts === true) b = await startHost(store(), makeManualClock(START))
    })
    afterAll(() => Promise.all([a, b].map((host) => host?.runtime.dispose())))
    // Every host's business clock moves together: one instant, one payout period, whichever host passes.
    const advance = async (seconds: number) => {
      await a.advance(seconds)
      await b?.advance(seconds)
    }

    const balanceOf = async (host: Host, shop: Shop) => {
      const answer = await host.calls.merchant(shop.caller, "GET", "/api/v1/balances")
      expect(answer.status, answer.text).toBe(200)
      return answer.body.data.find((each: any) => each.currency_code === "EUR")
    }
    const settle = async (shop: Shop, settings: object) => {
      const answer = await a.calls.admin("PUT", `/merchants/${shop.merchant.id}/payout-settings`, settings)
      expect(answer.status, answer.text).toBe(200)
      return answer.body.data
    }
    const trialBalance = async () => {
      const answer = await a.calls.admin("GET", "/ledger/trial-balance?environment=sandbox&currency=EUR")
      return { sum: answer.body.data.sum as number, accounts: new Map<string, number>(answer.body.data.accounts.map((each: any) => [each.account, each.balance])) }
    }

    it("a payment's net is pending for the payout delay, its reserve share held until released after reserve_days", async () => {
      const shop = await a.run(openShop("Pending shop"))
      const settings = await settle(shop, { payout_delay_days: 2, reserve_percent: "10", reserve_days: 5 })
      expect(settings).toEqual({
        payout_delay_days: 2, payout_delay_days_in_effect: { sandbox: 2, production: 2 },
        reserve_percent: 10, reserve_days: 5, payout_schedule: "manual", payout_minimum: 0
      })
      expect((await a.calls.merchant(shop.caller, "GET", "/api/v1/payout-settings")).body.data).toEqual(settings)
      const paidAt: Instant = (await a.run(pay(shop, "100.05"))).completedAt!
      // 10 % of 100.05 is 10.005: held as 10.01 (a tie held).
      expect(await balanceOf(a, shop)).toEqual({
        currency_code: "EUR", environment: "sandbox", balance: 90.04, active: true,
        available: 0, pending: 90.04, reserved: 10.01, in_payouts: 0, next_available_at: toIsoString(plusSeconds(paidAt, 2 * DAY))
      })
      const destination = (await a.calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", bankAccount())).body.data.id
      const refused = await a.calls.merchant(shop.caller, "POST", "/api/v1/payouts", { amount: "0.01", currency: "EUR", destination_id: destination })
      expect([refused.status, refused.body.message, refused.body.errors.available_balance]).toEqual([422, "Payout amount exceeds the available balance", ["The available balance is 0.00 EUR."]])

      await advance(2 * DAY)
      expect(await balanceOf(a, shop)).toMatchObject({ balance: 90.04, available: 90.04, pending: 0, reserved: 10.01, next_available_at: null })
      const asked = await a.calls.merchant(shop.caller, "POST", "/api/v1/payouts", { amount: "50.00", currency: "EUR", destination_id: destination })
      expect(asked.status, asked.text).toBe(201)
      expect(await balanceOf(a, shop)).toMatchObject({ balance: 40.04, available: 40.04, pending: 0, reserved: 10.01, in_payouts: 50 })

      // Not yet due: nothing released; the payment past its delay is announced (to no endpoint).
      expect(await a.moneyOut()).toEqual(Either.right({ reservesReleased: 0, automaticPayouts: 0, balancesAnnounced: 1 }))
      await advance(3 * DAY)
      // Through the admin API, as an operator on the manual clock would.
      const released = await a.calls.admin("POST", "/scheduler/money-out/run")
      expect(released.status, released.text).toBe(200)
      expect(released.body.data.reserves_released).toBeGreaterThanOrEqual(1)
      expect(await balanceOf(a, shop)).toMatchObject({ balance: 50.05, available: 50.05, reserved: 0, in_payouts: 50 })
      // Released once: another pass moves nothing more.
      await a.moneyOut()
      expect((await balanceOf(a, shop)).balance).toBe(50.05)
      const { sum, accounts } = await trialBalance()
      expect(sum).toBe(0)
      expect(accounts.get(reserveHoldAccount(shop.merchant.id)) ?? 0).toBe(0)
      expect(accounts.get(walletAccount(shop.merchant.id))).toBe(-50.05)
    })

    it("refuses settings out of range, field by field, and a merchant that does not exist", async () => {
      const shop = await a.run(openShop("Strict shop"))
      const wrong = await a.calls.admin("PUT", `/merchants/${shop.merchant.id}/payout-settings`, { reserve_percent: "100.01", reserve_days: -1, payout_schedule: "hourly" })
      expect(wrong.status).toBe(422)
      expect(Object.keys(wrong.body.errors).sort()).toEqual(expect.arrayContaining(["payout_schedule", "reserve_days"]))
      const tooFine = await a.calls.admin("PUT", `/merchants/${shop.merchant.id}/payout-settings`, { reserve_percent: "2.555" })
      expect([tooFine.status, Object.keys(tooFine.body.errors)]).toEqual([422, ["reserve_percent"]])
      expect((await a.calls.admin("PUT", "/merchants/999999999/payout-settings", {})).status).toBe(404)
      const audit = await a.calls.admin("GET", `/audit?merchant_id=${shop.merchant.id}`)
      expect(JSON.stringify(audit.body)).toContain("replaceMerchantPayoutSettings")
    })

    it("daily automatic payouts: the whole available amount once a day, however often the scheduler runs", async () => {
      const shop = await a.run(openShop("Daily shop"))
      await settle(shop, { payout_schedule: "daily", payout_minimum: "5" })
      const destination = (await a.calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", bankAccount())).body.data.id
      await a.run(adjustWallet(shop.wallet.id, { kind: "string", value: "3.00" }, "float"))
      // Below the minimum: nothing, and the day is not used up.
      await a.moneyOut()
      await a.run(adjustWallet(shop.wallet.id, { kind: "string", value: "97.00" }, "float"))
      const hosts = [a, ...(b === undefined ? [] : [b])]
      const runs = await Promise.all(hosts.flatMap((host) => [host.moneyOut(), host.moneyOut()]))
      for (const each of runs) if (Either.isLeft(each)) expect(each.left._tag).toBe("SchedulerBusy")
      await a.moneyOut()
      if (b !== undefined) await b.moneyOut()
      const payouts = async () => (await a.calls.merchant(shop.caller, "GET", "/api/v1/payouts?limit=100")).body.data as ReadonlyArray<any>
      expect((await payouts()).map((each) => [each.amount, each.destination_id, each.status])).toEqual([[100, destination, "pending"]])
      expect(await balanceOf(a, shop)).toMatchObject({ balance: 0, available: 0, in_payouts: 100 })

      await a.run(adjustWallet(shop.wallet.id, { kind: "string", value: "30.00" }, "float"))
      await a.moneyOut()
      expect(await payouts()).toHaveLength(1)
      await advance(DAY)
      await Promise.all(hosts.map((host) => host.moneyOut()))
      await Promise.all(hosts.map((host) => host.moneyOut()))
      expect((await payouts()).map((each) => each.amount)).toEqual([30, 100])
      expect((await trialBalance()).sum).toBe(0)
    })

    /** The `balance.available` events queued for the shop, oldest first, with their bodies. */
    const announced = (shop: Shop) =>
      a.run(Effect.flatMap(WebhookOutbox, (outbox) =>
        outbox.events({ merchantId: shop.merchant.id, environment: shop.caller.environment, limit: 100, type: "balance.available" })))
        .then((events) => [...events].reverse().map((event) => ({ url: event.url, objectId: event.objectId, body: JSON.parse(event.body) })))

    it("balance.available: once when a production payment's 2-day delay has passed, however often and on however many hosts the scheduler runs; once when its reserve is released", async () => {
      const shop = await a.run(openShop("Announced shop", "production"))
      await settle(shop, { reserve_percent: "10", reserve_days: 3 })
      const hook = "https://93.184.216.34/balances"
      const endpoint = await a.calls.merchant(shop.caller, "POST", "/api/v1/webhook-endpoints", { url: hook, events: ["balance.available"] })
      expect(endpoint.status, endpoint.text).toBe(201)
      await a.run(pay(shop, "100.00"))
      // Completed a moment ago: pending, nothing to announce (payment.completed says it was paid).
      await a.moneyOut()
      expect(await announced(shop)).toEqual([])
      expect(await balanceOf(a, shop)).toMatchObject({ environment: "production", available: 0, pending: 90, reserved: 10 })

      await advance(2 * DAY)
      const hosts = [a, ...(b === undefined ? [] : [b])]
      const { moneyOutTick } = await import("../../core/balances/money-out-scheduler.js")
      await Promise.all(hosts.flatMap((host) => [host.run(moneyOutTick(100)), host.run(moneyOutTick(100))]))
      await a.moneyOut()
      const afterDelay = await announced(shop)
      expect(afterDelay).toHaveLength(1)
      // The balance as GET /api/v1/balances answers it for the currency.
      const readAfterDelay = await balanceOf(a, shop)
      expect(readAfterDelay).toMatchObject({ balance: 90, available: 90, pending: 0, reserved: 10, in_payouts: 0, next_available_at: null })
      expect(afterDelay[0]).toEqual({
        url: hook,
        objectId: "balance_EUR",
        body: { event: "balance.available", status: "available", message: expect.any(String), timestamp: expect.any(Number), data: readAfterDelay }
      })

      await advance(DAY)
      await Promise.all(hosts.map((host) => host.moneyOut()))
      await a.moneyOut()
      const afterRelease = await announced(shop)
      expect(afterRelease).toHaveLength(2)
      const readAfterRelease = await balanceOf(a, shop)
      expect(readAfterRelease).toMatchObject({ balance: 100, available: 100, pending: 0, reserved: 0 })
      expect(afterRelease[1]!.body.data).toEqual(readAfterRelease)
    })

    it("balance.available: nothing queued for a shop with no endpoint subscribed to it, nor for a payment available at once", async () => {
      const quiet = await a.run(openShop("Quiet shop", "production"))
      const other = await a.calls.merchant(quiet.caller, "POST", "/api/v1/webhook-endpoints", { url: "https://93.184.216.34/payouts", events: ["payout.*"] })
      expect(other.status, other.text).toBe(201)
      await a.run(pay(quiet, "20.00"))
      const immediate = await a.run(openShop("Immediate shop"))
      await a.calls.merchant(immediate.caller, "POST", "/api/v1/webhook-endpoints", { url: "https://93.184.216.34/all", events: ["*"] })
      await a.run(pay(immediate, "5.00"))
      await advance(2 * DAY)
      await a.moneyOut()
      await a.moneyOut()
      expect(await announced(quiet)).toEqual([])
      expect(await balanceOf(a, quiet)).toMatchObject({ available: 20, pending: 0 })
      expect(await announced(immediate)).toEqual([])
      expect(await balanceOf(a, immediate)).toMatchObject({ available: 5, pending: 0 })
    })

    if (options.twoHosts === true) {
      it("two hosts passing at the same moment make one payout for the day between them", async () => {
        const shop = await a.run(openShop("Two host shop"))
        await settle(shop, { payout_schedule: "daily" })
        await a.calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", bankAccount())
        await a.run(adjustWallet(shop.wallet.id, { kind: "string", value: "40.00" }, "float"))
        // Each host's pass in its own lease name's turn: the tick itself, not the lease, run at once on both.
        const { moneyOutTick } = await import("../../core/balances/money-out-scheduler.js")
        await Promise.all([a.run(moneyOutTick(100)), b!.run(moneyOutTick(100)), a.run(moneyOutTick(100)), b!.run(moneyOutTick(100))])
        const payouts = (await a.calls.merchant(shop.caller, "GET", "/api/v1/payouts?limit=100")).body.data as ReadonlyArray<any>
        expect(payouts.map((each) => each.amount)).toEqual([40])
        expect(await balanceOf(b!, shop)).toMatchObject({ balance: 0, in_payouts: 40 })
      })
    }
  })
