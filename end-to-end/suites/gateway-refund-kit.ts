import { Effect, Layer, Logger, ManagedRuntime, Option } from "effect"
import type { AuthenticatedMerchant } from "../../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { CheckoutAttempts } from "../../core/payments/checkout-attempts.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import type { Gateway } from "../../core/gateways/gateway.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import {
  GATEWAY_PLUGIN_API_VERSION,
  GatewayFailure,
  type GatewayPluginDefinition,
  type PluginCapabilities,
  type RefundContext,
  type RefundReport
} from "../../core/gateways/gateway-plugin.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { GatewayRefunds } from "../../core/refunds/gateway-refund.js"
import { executeDueRefunds } from "../../core/refunds/gateway-refund-executor.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { now } from "../../core/shared/instant.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"

/** One answer of the scripted plugin: a report, a thrown error, a failed Effect, or success after half a second. */
export type RefundStep = RefundReport | "throw" | "fail" | "slow"

/**
 * A tiny Effect-style plugin whose refund answers follow a script per payment (then "succeeded"),
 * each call recorded with its context, and each answer a little late so concurrent callers overlap.
 */
export const scriptedRefundPlugin = (id: string, capabilities: Partial<PluginCapabilities>) => {
  const scripts = new Map<string, Array<RefundStep>>()
  const calls: Array<RefundContext<unknown>> = []
  const definition: GatewayPluginDefinition = {
    id,
    displayName: `Scripted ${id}`,
    version: "1.0.0",
    apiVersion: GATEWAY_PLUGIN_API_VERSION,
    currencies: "any",
    environments: ["sandbox", "production"],
    capabilities,
    secretConfigKeys: ["api_key"],
    parseConfig: (raw) => Effect.succeed(raw),
    beginCheckout: () => Effect.succeed({ redirect: "https://gateway.example/pay" }),
    handleReturn: () => Effect.succeed({ outcome: "pending", verified: false }),
    ...(capabilities.refunds === true
      ? {
        refund: (context: RefundContext<unknown>) =>
          Effect.suspend((): Effect.Effect<RefundReport, GatewayFailure> => {
            calls.push(context)
            const succeeded: RefundReport = { status: "succeeded", gatewayRefundReference: `re_${context.refundTrxId}` }
            const step = scripts.get(context.trxId)?.shift() ?? succeeded
            if (step === "throw") return Effect.die(new Error("connection reset by the gateway"))
            if (step === "fail") return Effect.fail(new GatewayFailure({ message: "gateway unavailable", retryable: true }))
            if (step === "slow") return Effect.as(Effect.sleep("500 millis"), succeeded)
            return Effect.as(Effect.sleep("40 millis"), step)
          })
      }
      : {})
  }
  return {
    definition,
    script: (trxId: string, steps: ReadonlyArray<RefundStep>) => void scripts.set(trxId, [...steps]),
    callsFor: (trxId: string) => calls.filter((call) => call.trxId === trxId)
  }
}

/** The gateway credential the whole-refunds gateway record holds: plugins get it, logs never show it. */
export const GATEWAY_SECRET = "sk_live_never_in_a_log_line"

/**
 * The kit over a real store with two scripted plugins beside the sandbox (which refunds in part too):
 * one that refunds whole payments only, one that cannot refund. Business time is a manual clock the
 * tests move.
 */
export const makeRefundKit = async (store: StoreConfig) => {
  const manual = makeManualClock(Date.UTC(2030, 0, 15, 9, 0, 0))
  const whole = scriptedRefundPlugin("whole-refunds", { refunds: true })
  const none = scriptedRefundPlugin("no-refunds", {})
  const config = testKitConfig(store, { plugins: [whole.definition, none.definition], manualClock: manual })
  const runtime = ManagedRuntime.make(kitLayer(config))
  // Log lines are kept for the tests to read instead of printed.
  const logs: Array<string> = []
  const captured = Logger.replace(Logger.defaultLogger, Logger.map(Logger.logfmtLogger, (line) => void logs.push(line)))
  const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> =>
    runtime.runPromise(Effect.withClock(effect, manual.clock).pipe(Effect.provide(captured)) as Effect.Effect<A, E, never>)

  const setup = await run(Effect.gen(function*() {
    const merchant = yield* createMerchant({ name: "Refund shop", status: "approved" })
    yield* replaceCurrencies(merchant.id, ["USD"])
    yield* createWallet(merchant.id, "USD", "sandbox")
    const gateway = (plugin: string, config: Readonly<Record<string, unknown>> = {}) =>
      createGateway({ plugin, name: plugin, currencyCode: "USD", method: `${plugin.replace("-", "")}${merchant.id}`, type: "automatic", active: true, config })
    const gateways = {
      sandbox: yield* gateway("sandbox"),
      whole: yield* gateway("whole-refunds", { api_key: GATEWAY_SECRET }),
      none: yield* gateway("no-refunds")
    }
    const issued = yield* issueCredentials(merchant.id, "sandbox")
    const credentials = { merchantId: merchant.id, environment: "sandbox" as const, merchantKey: issued.merchantKey, apiKeyHash: "", sealedClientSecret: "", sealedWebhookSecret: "", createdAt: merchant.createdAt }
    const caller = { merchant, environment: "sandbox", credentials, clientSecret: issued.clientSecret, webhookSecret: issued.webhookSecret } as AuthenticatedMerchant
    return { caller, gateways }
  }))

  let sequence = 0
  /** A completed payment taken by `gateway` (null: none), whose checkout the gateway named `gw-<trx id>`. */
  const paidPayment = (gateway: Gateway | null, amount = "100.00") =>
    run(Effect.gen(function*() {
      const session = yield* initiatePayment(setup.caller, {
        amount: { kind: "string", value: amount },
        currency: "USD",
        refTrx: `order-${++sequence}-${Date.now()}`,
        successRedirect: "https://shop.example/ok",
        cancelRedirect: "https://shop.example/cancel",
        ipnUrl: "https://shop.example/ipn",
        description: null,
        customerName: null,
        customerEmail: null,
        keywords: []
      })
      const trxId = session.payment.trxId
      if (gateway !== null) {
        const attempts = yield* CheckoutAttempts
        yield* attempts.begin(trxId, gateway.id, yield* now, null)
        yield* attempts.setReference(trxId, gateway.id, `gw-${trxId}`)
      }
      return yield* finishPayment(trxId, { outcome: "paid", gatewayId: gateway === null ? null : gateway.id })
    }))

  /** What a refund could have moved: the wallet, the payment's total, its refunds and gateway refunds. */
  const moneyState = (trxId: string) =>
    run(Effect.gen(function*() {
      const wallet = Option.getOrThrow(yield* (yield* WalletRepository).find(setup.caller.merchant.id, "USD", "sandbox"))
      const payment = Option.getOrThrow(yield* (yield* PaymentRepository).findByTrxId(trxId))
      return {
        balance: wallet.balance,
        ledgerSum: yield* (yield* WalletRepository).ledgerSum(wallet.id),
        refunded: payment.refundedAmount,
        refunds: yield* (yield* RefundRepository).listForPayment(trxId),
        gatewayRefunds: yield* (yield* GatewayRefunds).listForPayment(trxId)
      }
    }))

  return {
    ...setup,
    runtime,
    manual,
    logs,
    whole,
    none,
    run,
    paidPayment,
    moneyState,
    execute: () => run(executeDueRefunds(50)),
    advance: (seconds: number) => run(manual.advance(seconds)),
    /** A second host on the same store, running the background jobs as a started kit does, until disposed. */
    startHostWithJobs: async () => {
      const host = ManagedRuntime.make(kitLayer({ ...config, backgroundJobs: true, scheduler: { enabled: false, batchSize: 100 } }).pipe(Layer.provide(captured)))
      await host.runtime()
      return host
    },
    dispose: () => runtime.dispose()
  }
}

export type RefundKit = Awaited<ReturnType<typeof makeRefundKit>>
