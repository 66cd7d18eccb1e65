import { HttpApp } from "@effect/platform"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../adapters/http/app.js"
import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { trialBalance } from "../core/ledger/trial-balance.js"
import { defaultSiteSettings } from "../core/settings/site-settings.js"
import { WalletRepository } from "../core/wallets/wallet-repository.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { bankAccount, kitCalls, payoutShop } from "./suites/payout-suite.js"
import { testKitConfig } from "./suites/test-kit-config.js"

/**
 * Ten payouts racing for one balance that pays only some of them, asked through two kits on one
 * PostgreSQL database: the wallet row's own check refuses the rest, whichever kit asked.
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
  }))
