import * as HttpApp from "@effect/platform/HttpApp"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import type { AuthenticatedMerchant } from "../../core/merchants/authenticator.js"
import type { Merchant } from "../../core/merchants/merchant.js"
import { createMerchant, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { defaultCurrencyCatalog } from "../../core/money/currencies.js"
import { CheckoutAttempts } from "../../core/payments/checkout-attempts.js"
import type { Gateway } from "../../core/gateways/gateway.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import type { GatewayPluginDefinition } from "../../core/gateways/gateway-plugin.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import type { Payment } from "../../core/payments/payment.js"
import { PaymentFlags } from "../../core/payments/payment-flags.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { refundPayment } from "../../core/refunds/refund-payment.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { httpApp } from "../../adapters/http/app.js"
import { defaultWebhookConfig, kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import type { CheckoutAtGateway, CustomerAction, GatewayDriver, GatewayNotification } from "./driver.js"

const BASE_URL = "https://pay.example"

/** The plugin's default environment and currency for the run. */
const environmentFor = (plugin: GatewayPluginDefinition, driver: GatewayDriver) =>
  driver.environment ?? (plugin.environments.includes("sandbox") ? "sandbox" : "production")
const currencyFor = (plugin: GatewayPluginDefinition, driver: GatewayDriver) =>
  driver.currency ?? (plugin.currencies === "any" || plugin.currencies.includes("USD") ? "USD" : plugin.currencies[0] ?? "USD")

export interface Answer {
  readonly status: number
  readonly location: string | null
  readonly body: string
}

/**
 * A whole kit in this process around one plugin: a throw-away SQLite store (or the one given), a manual clock, a
 * merchant with a wallet and one gateway record of the plugin, and the kit's own HTTP edge. Cases
 * drive it the way a customer and a gateway would, and read the store to see what happened.
 */
export const startKit = async (
  plugin: GatewayPluginDefinition,
  driver: GatewayDriver,
  options: { readonly callTimeoutMillis?: number; readonly store?: StoreConfig } = {}
) => {
  const directory = mkdtempSync(join(tmpdir(), "mp-gateway-conformance-"))
  const clock = makeManualClock(Date.parse("2030-01-15T10:00:00Z"))
  const environment = environmentFor(plugin, driver)
  const currency = currencyFor(plugin, driver)
  const runtime = ManagedRuntime.make(kitLayer({
    store: options.store ?? { kind: "sqlite", filename: join(directory, "store.db") },
    masterKey: new Uint8Array(32).fill(42),
    adminToken: "conformance-admin-token",
    settings: defaultSiteSettings,
    currencies: defaultCurrencyCatalog,
    baseUrl: BASE_URL,
    checkoutLifetimeSeconds: 3600,
    webhooks: defaultWebhookConfig,
    backgroundJobs: false,
    builtInSandbox: false,
    plugins: [plugin],
    pluginCallTimeoutMillis: options.callTimeoutMillis ?? 1_000,
    manualClock: clock
  }))
  const quiet = <A, E, R>(effect: Effect.Effect<A, E, R>) => effect.pipe(Effect.withClock(clock.clock), Logger.withMinimumLogLevel(LogLevel.Error))
  const run = <A, E>(effect: Effect.Effect<A, E, unknown>) => runtime.runPromise(quiet(effect) as Effect.Effect<A, E, never>)
  const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(quiet(httpApp))

  const { merchant, gateway } = await run(Effect.gen(function*() {
    const merchant = yield* createMerchant({ name: "Conformance Shop", status: "approved" })
    yield* replaceCurrencies(merchant.id, [currency])
    yield* createWallet(merchant.id, currency, environment)
    const gateway = yield* createGateway({
      plugin: plugin.id,
      name: `${plugin.displayName} (conformance)`,
      currencyCode: currency,
      method: "conformance",
      type: "automatic",
      active: true,
      config: driver.config
    })
    return { merchant, gateway }
  }))

  const send = async (method: string, url: string, body?: Uint8Array | string, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await handler(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }))
    return { status: response.status, location: response.headers.get("location"), body: await response.text() }
  }
  const form = (fields: Readonly<Record<string, string>>) => new URLSearchParams(fields).toString()
  const FORM = { "content-type": "application/x-www-form-urlencoded" }

  /** A refund the merchant asks for through the one refund path; the whole payment unless `amount`. */
  const refundEither = (trxId: string, amount?: string) =>
    run(Effect.either(refundPayment({ merchant, environment } as AuthenticatedMerchant, {
      trxId,
      amount: amount === undefined ? undefined : { kind: "string", value: amount },
      reason: "conformance",
      refRefund: null
    })))

  let references = 0
  return {
    plugin,
    gateway: gateway as Gateway,
    merchant: merchant as Merchant,
    environment,
    currency,
    clock,
    run,
    /** A new pending payment of 12.50 (or 1250 in a currency without minor units). */
    initiate: async (amount = "12.50") => {
      const session = await run(initiatePayment({ merchant, environment }, {
        amount: { kind: "string", value: amount },
        currency,
        refTrx: `conformance-${++references}`,
        successRedirect: "https://shop.example/ok",
        cancelRedirect: "https://shop.example/cancel",
        ipnUrl: "https://shop.example/ipn",
        description: "Conformance order",
        customerName: null,
        customerEmail: null,
        keywords: []
      }))
      return { trxId: session.payment.trxId, paymentUrl: session.paymentUrl, amount }
    },
    /** The customer picks the gateway on hosted checkout; the plugin's answer as the browser got it. */
    choose: async (payment: { readonly trxId: string; readonly paymentUrl: string; readonly amount: string }): Promise<{ readonly answer: Answer; readonly checkout: CheckoutAtGateway | undefined }> => {
      const answer = await send("POST", `${payment.paymentUrl}/pay`, form({ gateway_id: String(gateway.id) }), FORM)
      const isForm = answer.status === 200
      if (!(isForm || (answer.status === 303 && answer.location !== null))) return { answer, checkout: undefined }
      const attempt = await run(Effect.flatMap(CheckoutAttempts, (attempts) => attempts.find(payment.trxId, gateway.id)))
      return {
        answer,
        checkout: {
          trxId: payment.trxId,
          amount: payment.amount,
          currency,
          environment,
          start: isForm ? { html: answer.body } : { redirect: answer.location! },
          page: isForm ? answer.body : undefined,
          returnUrl: `${payment.paymentUrl}/return/${gateway.id}`,
          gatewayReference: Option.match(attempt, { onNone: () => null, onSome: (found) => found.gatewayReference })
        }
      }
    },
    /** The customer's browser doing what the gateway told it. */
    comeBack: (checkout: CheckoutAtGateway, action: CustomerAction) =>
      "cancels" in action
        ? send("POST", checkout.returnUrl.replace(/\/return\/\d+$/, "/cancel"), "", FORM)
        : send("POST", checkout.returnUrl, form(action.returnFields), FORM),
    notify: (notification: GatewayNotification, at: Gateway = gateway) =>
      send("POST", `${BASE_URL}/gateways/${at.id}/notify?environment=${environment}`, notification.rawBody, { ...notification.headers }),
    /** Another gateway record of the same plugin and config: an instance the payment was not begun with. */
    anotherGateway: (method: string) =>
      run(createGateway({ plugin: plugin.id, name: `${plugin.displayName} (${method})`, currencyCode: currency, method, type: "manual", active: true, config: driver.config })),
    payment: (trxId: string): Promise<Payment> =>
      run(Effect.flatMap(PaymentRepository, (payments) => payments.findByTrxId(trxId)).pipe(Effect.map(Option.getOrThrow))),
    /** Wallet credits made for the payment: the ledger's word, not the payment row's. */
    credits: (trxId: string) =>
      run(Effect.gen(function*() {
        const wallets = yield* WalletRepository
        const wallet = Option.getOrThrow(yield* wallets.find(merchant.id, currency, environment))
        return (yield* wallets.ledger(wallet.id)).filter((entry) => entry.kind === "payment_credit" && entry.reference === trxId).length
      })),
    /** Webhook events enqueued for the payment, by event name. */
    events: (trxId: string) =>
      run(Effect.map(Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ merchantId: merchant.id, limit: 1000 })), (deliveries) =>
        deliveries.filter((delivery) => delivery.body.includes(trxId)).map((delivery) => delivery.event))),
    refundEither,
    refund: async (trxId: string, amount?: string) => Either.getOrThrowWith(await refundEither(trxId, amount), (error) => new Error(error._tag)).refund,
    flags: (trxId: string) => run(Effect.flatMap(PaymentFlags, (flags) => flags.listForPayment(trxId))),
    close: async () => {
      await runtime.dispose()
      rmSync(directory, { recursive: true, force: true })
    }
  }
}

export type KitUnderTest = Awaited<ReturnType<typeof startKit>>
