import { HttpApp } from "@effect/platform"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../adapters/http/app.js"
import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { trialBalance } from "../core/ledger/trial-balance.js"
import { defaultSiteSettings } from "../core/settings/site-settings.js"
import { WalletRepository } from "../core/wallets/wallet-repository.js"
import { replacePayoutSettings } from "../core/balances/payout-settings-admin.js"
import { finishPayment } from "../core/payments/finish-payment.js"
import { initiatePayment } from "../core/payments/initiate-payment.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { bankAccount, kitCalls, payoutShop } from "./suites/payout-suite.js"
import { testKitConfig } from "./suites/test-kit-config.js"

/**
 * Ten payouts racing for one balance that pays only some of them, asked through two kits on one
 * PostgreSQL database: the wallet row's own check refuses the rest, whichever kit asked; and again
 * with part of the balance pending, where what is available is read under the wallet's row lock.
 */
onThrowawayPostgres("payouts racing on two kits", (url) =>
  describe("payouts racing for one balance on two kits sharing PostgreSQL", () => {
    const runtimes: Array<ManagedRuntime.ManagedRuntime<any, any>> = []
    const kits: Array<ReturnType<typeof kitCalls>> = []
    const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> => runtimes[0]!.runPromise(effect as Effect.Effect<A, E, never>)

    beforeAll(async () => {
      for (let i = 0; i < 2; i++) {
        const runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "postgres", url: url() }, { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 } })))
        runtimes.push(runtime)
        kits.push(kitCalls(HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Error)))))
      }
    })
    afterAll(() => Promise.all(runtimes.map((runtime) => runtime.dispose())))

    it("never pays out more than the balance, never takes it below zero, and keeps the trial balance zero", async () => {
      const shop = await run(payoutShop("Racing shop", "100.00"))
      const destination = (await kits[0]!.merchant(shop.caller, "POST", "/api/v1/payout-destinations", bankAccount())).body.data.id
      // 10 x 15.00 against 100.00: at most six can be paid out.
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
        kits[i % 2]!.merchant(shop.caller, "POST", "/api/v1/payouts", { amount: "15.00", currency: "EUR", destination_id: destination })))
      const made = answers.filter((answer) => answer.status === 201)
      const refused = answers.filter((answer) => answer.status === 422)
      expect(made.length + refused.length, answers.map((answer) => answer.text).join("\n")).toBe(10)
      expect(made.length).toBe(6)
      for (const answer of refused) expect(answer.body.message).toBe("Payout amount exceeds the available balance")
      const sum = made.reduce((total, answer) => total + answer.body.data.amount, 0)
      expect(sum).toBeLessThanOrEqual(100)

      const wallet = await run(Effect.flatMap(WalletRepository, (wallets) => wallets.findById(shop.wallet.id)))
      const balance = wallet._tag === "Some" ? wallet.value.balance : -1n
      expect(balance).toBeGreaterThanOrEqual(0n)
      expect(balance).toBe(10n * 100_000_000n)
      const book = await run(trialBalance("sandbox", "EUR"))
      expect(book.sum).toBe(0n)
      // Every payout made is listed on either kit, each once.
      const listed = (await kits[1]!.merchant(shop.caller, "GET", "/api/v1/payouts?limit=100")).body.data as ReadonlyArray<any>
      expect(listed.map((each) => each.id).sort()).toEqual(made.map((answer) => answer.body.data.id).sort())
    })

    it("never pays out what is still pending: ten payouts race for what is available, the pending net stays", async () => {
      const shop = await run(payoutShop("Pending racing shop", "100.00"))
      await run(replacePayoutSettings(shop.merchant.id, { payoutDelayDays: 2 }))
      // 50.00 paid just now: pending for two days, part of the balance but not available.
      await run(Effect.gen(function*() {
        const session = yield* initiatePayment({ merchant: shop.merchant, environment: "sandbox" }, {
          amount: { kind: "string", value: "50.00" }, currency: "EUR", refTrx: "pending-race-1",
          successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/cancel", ipnUrl: "https://shop.example/ipn",
          description: null, customerName: null, customerEmail: null, keywords: []
        })
        yield* finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null })
      }))
      const destination = (await kits[0]!.merchant(shop.caller, "POST", "/api/v1/payout-destinations", bankAccount())).body.data.id
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
        kits[i % 2]!.merchant(shop.caller, "POST", "/api/v1/payouts", { amount: "15.00", currency: "EUR", destination_id: destination })))
      const made = answers.filter((answer) => answer.status === 201)
      const refused = answers.filter((answer) => answer.status === 422)
      expect(made.length + refused.length, answers.map((answer) => answer.text).join("\n")).toBe(10)
      // 150.00 held, 50.00 of it pending: six payouts of 15.00 fit in the 100.00 available, a seventh would take pending money.
      expect(made.length).toBe(6)
      for (const answer of refused) expect(answer.body.errors.available_balance).toEqual(["The available balance is 10.00 EUR."])
      const balances = (await kits[1]!.merchant(shop.caller, "GET", "/api/v1/balances")).body.data as ReadonlyArray<any>
      expect(balances.find((each) => each.currency_code === "EUR")).toMatchObject({ balance: 60, pending: 50, available: 10, in_payouts: 90 })
      expect((await run(trialBalance("sandbox", "EUR"))).sum).toBe(0n)
    })
  }))
