import { Chunk, Effect, Either, ManagedRuntime, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { overview } from "../../core/merchants/merchant-overview.js"
import type { MerchantScope } from "../../core/merchants/merchant-scope.js"
import { createMerchant, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { SCALE } from "../../core/money/amount.js"
import { parseSignedAmount } from "../../core/money/parse.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import type { PaymentOutcome } from "../../core/payments/payment.js"
import { refundPayment } from "../../core/refunds/refund-payment.js"
import { fromIsoString, now, plusSeconds, toIsoString } from "../../core/shared/instant.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { statementCsv } from "../../core/wallets/statement-csv.js"
import { walletStatement } from "../../core/wallets/statement.js"
import { adjustWallet, createWallet } from "../../core/wallets/wallet-admin.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { checkoutSettingsCases } from "./checkout-settings-cases.js"
import { statementPropertyCase } from "./statement-property-case.js"
import { testKitConfig } from "./test-kit-config.js"

/** An exact amount from its decimal text, as the tests state figures. */
export const amountOf = (text: string) => Either.getOrThrow(parseSignedAmount({ kind: "string", value: text }, SCALE))

/**
 * The use cases a merchant dashboard stands on, over a real store and the kit as hosts assemble it:
 * the overview's figures on business time, statements of money moved by real payments and refunds,
 * and the API Config page changing what checkout offers at once.
 */
export const merchantDashboardSuite = (name: string, store: () => StoreConfig) =>
  describe(`merchant dashboard: ${name}`, () => {
    // Business time starts on 1 March 2025 at noon UTC; "today" in the overview is 10 March.
    const manual = makeManualClock(Date.UTC(2025, 2, 1, 12))
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(Effect.withClock(effect as Effect.Effect<A, E, never>, manual.clock))
    const moveTo = (iso: string) => run(manual.advance(Number((fromIsoString(iso)! - manual.unsafeNow()) / 1_000_000n)))

    beforeAll(() => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), { manualClock: manual })))
    })
    afterAll(() => runtime.dispose())

    const shop = (label: string, currencies: ReadonlyArray<string>) =>
      run(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: label, status: "approved" })
        yield* replaceCurrencies(merchant.id, currencies)
        for (const currency of currencies) yield* createWallet(merchant.id, currency, "sandbox")
        return { merchant, environment: "sandbox" } as MerchantScope
      }))

    let sequence = 0
    const open = (scope: MerchantScope, currency: string, amount: string) =>
      run(initiatePayment(scope, {
        amount: { kind: "string", value: amount },
        currency,
        refTrx: `dash-${++sequence}`,
        successRedirect: "https://shop.example/ok",
        cancelRedirect: "https://shop.example/cancel",
        ipnUrl: "https://shop.example/ipn",
        description: null,
        customerName: null,
        customerEmail: null,
        keywords: []
      }))
    const end = (trxId: string, outcome: PaymentOutcome = "paid") => run(finishPayment(trxId, { outcome, gatewayId: null }))
    const pay = async (scope: MerchantScope, currency: string, amount: string, outcome: PaymentOutcome = "paid") => {
      const session = await open(scope, currency, amount)
      await end(session.payment.trxId, outcome)
      return session.payment
    }

    it("overview: balances, today since UTC midnight by the time paid, the last seven days, and failing webhooks", async () => {
      const scope = await shop("Overview Shop", ["USD", "EUR"])
      await run(createWallet(scope.merchant.id, "USD", "production"))
      await pay(scope, "USD", "1000") // 1 March: older than seven days
      await moveTo("2025-03-04T09:00:00Z")
      await pay(scope, "USD", "3")
      await moveTo("2025-03-09T23:50:00Z")
      await pay(scope, "USD", "4") // yesterday, in the last seven days only
      const straddling = await open(scope, "USD", "20")
      await moveTo("2025-03-10T00:10:00Z")
      await end(straddling.payment.trxId) // opened yesterday, paid today: today's money
      await moveTo("2025-03-10T09:00:00Z")
      await pay(scope, "USD", "10")
      await pay(scope, "USD", "2.50")
      await pay(scope, "EUR", "5")
      await pay(scope, "USD", "7", "declined")
      await pay({ ...scope, environment: "production" }, "USD", "100")
      await pay(await shop("Neighbour", ["USD"]), "USD", "50")

      // One of the shop's events fails for good, and its receiver is noted as failing.
      const failingAt = await moveTo("2025-03-10T09:30:00Z")
      const failed = await run(Effect.gen(function*() {
        const outbox = yield* WebhookOutbox
        const [event] = yield* outbox.events({ merchantId: scope.merchant.id, environment: "sandbox", limit: 1 })
        const at = yield* now
        yield* outbox.claimDue({ worker: "dash", now: at, leaseNow: at, leaseUntil: plusSeconds(at, 60), limit: 10_000, lane: "fast", perTarget: 10_000, perMerchant: 10_000 })
        yield* outbox.recordAttempt({ deliveryId: event!.id, worker: "dash", at, statusCode: 500, error: "HTTP 500", durationMs: 3, next: { status: "failed" } })
        yield* outbox.noteTargetOutcome({ deliveryId: event!.id, at, succeeded: false, slow: false, pauseAfterSeconds: undefined })
        return event!
      }))
      expect(failed.merchantId).toBe(scope.merchant.id)

      await moveTo("2025-03-10T10:00:00Z")
      const figures = await run(overview(scope))
      expect(figures.today).toEqual([
        { currency: "EUR", count: 1, volume: amountOf("5") },
        { currency: "USD", count: 3, volume: amountOf("32.50") }
      ])
      expect(figures.lastSevenDays).toEqual([
        { currency: "EUR", count: 1, volume: amountOf("5") },
        { currency: "USD", count: 5, volume: amountOf("39.50") }
      ])
      expect(figures.balances.map((wallet) => [wallet.currency, wallet.environment, wallet.balance])).toEqual([
        ["EUR", "sandbox", amountOf("5")],
        ["USD", "sandbox", amountOf("1039.50")]
      ])
      expect(figures.failingDeliveries).toEqual({
        targets: [{ merchantId: scope.merchant.id, environment: "sandbox", target: "https://shop.example", failingSince: failingAt, pausedAt: null }],
        failedEvents: 1
      })
      const production = await run(overview({ ...scope, environment: "production" }))
      expect([production.today, production.failingDeliveries.failedEvents]).toEqual([[{ currency: "USD", count: 1, volume: amountOf("100") }], 0])
    })

    it("statement: a real payment, refund and adjustment, newest first, and the same as CSV oldest first", async () => {
      const scope = await shop("Statement Shop", ["USD"])
      const payment = await pay(scope, "USD", "100")
      const refund = await run(refundPayment(scope, { trxId: payment.trxId, amount: { kind: "string", value: "30" }, reason: "=damaged, \"box\"", refRefund: null }))
      const wallet = (await run(overview(scope))).balances[0]!
      await run(adjustWallet(wallet.id, { kind: "string", value: "-5.25" }, "correction"))

      const page = await run(walletStatement(scope, wallet.id, { limit: 10 }))
      expect(page.entries.map((entry) => [entry.kind, entry.amount, entry.balanceAfter, entry.paymentTrxId, entry.refundTrxId, entry.memo])).toEqual([
        ["adjustment", -amountOf("5.25"), amountOf("64.75"), null, null, "correction"],
        ["refund_debit", -amountOf("30"), amountOf("70"), payment.trxId, refund.refund.refundTrxId, "=damaged, \"box\""],
        ["payment_credit", amountOf("100"), amountOf("100"), payment.trxId, null, null]
      ])
      expect(page.wallet.balance).toBe(page.entries[0]!.balanceAfter)

      const csv = (await run(Effect.flatMap(statementCsv(scope, wallet.id), Stream.runCollect)))
      const lines = Chunk.toReadonlyArray(csv).join("").split("\r\n")
      expect(lines.slice(1, 4).map((line) => line.split(",").slice(2, 5))).toEqual([
        ["payment_credit", "100.00", "100.00"],
        ["refund_debit", "-30.00", "70.00"],
        ["adjustment", "-5.25", "64.75"]
      ])
      expect(lines[2]!.endsWith(`${refund.refund.refundTrxId},"'=damaged, ""box"""`)).toBe(true)
      expect(lines[3]).toBe(`${page.entries[0]!.id},${toIsoString(page.entries[0]!.createdAt)},adjustment,-5.25,64.75,USD,,,admin,correction`)
      expect(lines.length).toBe(5) // header, three entries, and the empty text after the last CRLF
    })

    checkoutSettingsCases(run, { shop, open })
    statementPropertyCase(run, shop)
  })
