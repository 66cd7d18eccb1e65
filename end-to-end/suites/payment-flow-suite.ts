import { Effect, Either, ManagedRuntime, Option } from "effect"
import { Amount } from "../../core/money/amount.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { refundPayment } from "../../core/refunds/refund-payment.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthenticatedMerchant } from "../../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { initiatePayment, type InitiateRequest } from "../../core/payments/initiate-payment.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"

const request = (refTrx: string, amount = "100.00"): InitiateRequest => ({
  amount: { kind: "json-number", text: amount },
  currency: "USD",
  refTrx,
  successRedirect: "https://shop.example/ok",
  cancelRedirect: "https://shop.example/cancel",
  ipnUrl: "https://shop.example/ipn",
  description: null,
  customerName: null,
  customerEmail: null,
  keywords: []
})

/** Initiation and completion over a real store: fee, wallet credit, ledger and outbox in one step. */
export const paymentFlowSuite = (name: string, store: () => StoreConfig) =>
  describe(`payment completion: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let caller: AuthenticatedMerchant
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store())))
      caller = await run(Effect.gen(function*() {
        // 2.5 % + 0.30 on 100.00 is 2.80: the fee rounds once, to the cent.
        const merchant = yield* createMerchant({
          name: "Shop",
          status: "approved",
          feePercent: { kind: "json-number", text: "2.5" },
          feeFixed: { kind: "json-number", text: "0.30" }
        })
        yield* replaceCurrencies(merchant.id, ["USD"])
        yield* createWallet(merchant.id, "USD", "sandbox")
        yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `card${merchant.id}`, type: "automatic", active: true })
        const issued = yield* issueCredentials(merchant.id, "sandbox")
        const credentials = { merchantId: merchant.id, environment: "sandbox" as const, merchantKey: issued.merchantKey, apiKeyHash: "", sealedClientSecret: "", sealedWebhookSecret: "", createdAt: merchant.createdAt }
        return { merchant, environment: "sandbox", credentials, clientSecret: issued.clientSecret, webhookSecret: issued.webhookSecret } as AuthenticatedMerchant
      }))
    })
    afterAll(() => runtime.dispose())

    const wallet = () =>
      run(Effect.flatMap(WalletRepository, (wallets) => wallets.find(caller.merchant.id, "USD", "sandbox")).pipe(Effect.map(Option.getOrThrow)))

    it("credits the net to the wallet through the ledger and enqueues the completed event, once", async () => {
      const session = await run(initiatePayment(caller, request("flow-1")))
      expect(session.paymentUrl).toMatch(/^https:\/\/pay\.example\/checkout\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
      const before = await wallet()
      const done = await run(finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null }))
      expect([done.status, done.fee, done.net]).toEqual(["success", 280_000_000n, 9_720_000_000n])
      const after = await wallet()
      expect(after.balance - before.balance).toBe(9_720_000_000n)
      const ledger = await run(Effect.flatMap(WalletRepository, (wallets) => wallets.ledger(after.id)))
      expect(ledger.at(-1)).toMatchObject({ kind: "payment_credit", delta: 9_720_000_000n, reference: session.payment.trxId })

      const deliveries = await run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ merchantId: caller.merchant.id, limit: 50 })))
      const event = deliveries.find((delivery) => delivery.body.includes(session.payment.trxId))!
      expect([event.event, event.url, event.signingSecret, event.status]).toEqual(["payment.completed", "https://shop.example/ipn", "webhook_secret", "pending"])
      const body = JSON.parse(event.body)
      expect(body).toMatchObject({ status: "completed", data: { trx_id: session.payment.trxId, ref_trx: "flow-1", amount: 100, currency_code: "USD", environment: "sandbox", is_sandbox: true, merchant_name: "Shop" } })
      expect(event.body).toContain('"amount":100,')

      const again = await run(Effect.either(finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null })))
      expect(Either.isLeft(again) && again.left._tag).toBe("PaymentAlreadyFinal")
      expect((await wallet()).balance).toBe(after.balance)
    })

    it("a failed payment moves no money but still tells the merchant", async () => {
      const session = await run(initiatePayment(caller, request("flow-2")))
      const before = await wallet()
      const done = await run(finishPayment(session.payment.trxId, { outcome: "declined", gatewayId: null }))
      expect([done.status, done.failureReason, done.fee]).toEqual(["failed", "declined", null])
      expect((await wallet()).balance).toBe(before.balance)
      const deliveries = await run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ merchantId: caller.merchant.id, limit: 50 })))
      expect(deliveries.find((d) => d.body.includes(session.payment.trxId))?.event).toBe("payment.failed")
    })

    it("10 concurrent completions credit the wallet exactly once", async () => {
      const session = await run(initiatePayment(caller, request("flow-3", "10")))
      const before = await wallet()
      const results = await Promise.all(Array.from({ length: 10 }, () =>
        run(Effect.either(finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null })))))
      expect(results.filter(Either.isRight).length).toBe(1)
      // 2.5 % of 10.00 + 0.30 = 0.55; net 9.45.
      expect((await wallet()).balance - before.balance).toBe(945_000_000n)
    })

    it("10 concurrent repeats of one ref_refund refund once; 20 concurrent partial refunds never pass the amount; every total agrees", async () => {
      const session = await run(initiatePayment(caller, request("race-refund", "100")))
      const trxId = session.payment.trxId
      await run(finishPayment(trxId, { outcome: "paid", gatewayId: null }))
      // Fund the wallet beyond the net, so only the payment's own limit decides.
      const funded = await wallet()
      await run(Effect.flatMap(WalletRepository, (wallets) =>
        wallets.post({ walletId: funded.id, kind: "adjustment", delta: Amount(1_000n * 100_000_000n), reference: "fund" })))
      const before = await wallet()
      const refund = (amount: string, refRefund: string) =>
        run(Effect.either(refundPayment(caller, { trxId, amount: { kind: "json-number", text: amount }, reason: null, refRefund })))

      const repeats = await Promise.all(Array.from({ length: 10 }, () => refund("2", "same-ref")))
      expect(repeats.every(Either.isRight)).toBe(true)
      const ids = new Set(repeats.map((r) => Either.getOrThrow(r).refund.refundTrxId))
      expect(ids.size).toBe(1)

      // 98.00 left, 20 requests of 7.00: exactly 14 fit.
      const partials = await Promise.all(Array.from({ length: 20 }, (_, i) => refund("7", `part-${i}`)))
      const refused = partials.filter(Either.isLeft).map((r) => r.left._tag)
      expect(partials.filter(Either.isRight).length).toBe(14)
      // Each success saw the totals as they really were after it: 4.00 + 7.00 k, distinct, adding up.
      const totals = partials.filter(Either.isRight).map((r) => r.right.refund)
      expect(new Set(totals.map((r) => r.totalRefunded)).size).toBe(14)
      expect(totals.every((r) => r.totalRefunded + r.remainingRefund === 10_000_000_000n)).toBe(true)
      expect(totals.filter((r) => r.remainingRefund === 0n).length).toBe(1)
      expect(refused.every((tag) => tag === "RefundExceedsBalance" || tag === "PaymentFullyRefunded")).toBe(true)

      const payment = Option.getOrThrow(await run(Effect.flatMap(PaymentRepository, (payments) => payments.findByTrxId(trxId))))
      const refunds = await run(Effect.flatMap(RefundRepository, (repository) => repository.listForPayment(trxId)))
      const after = await wallet()
      const ledgerSum = await run(Effect.flatMap(WalletRepository, (wallets) => wallets.ledgerSum(after.id)))
      expect(payment.refundedAmount).toBe(payment.amount)
      expect(refunds.length).toBe(15)
      expect(refunds.reduce((sum, r) => sum + r.amount, 0n)).toBe(payment.amount)
      expect(before.balance - after.balance).toBe(payment.amount)
      expect(ledgerSum).toBe(after.balance)
    })
  })
