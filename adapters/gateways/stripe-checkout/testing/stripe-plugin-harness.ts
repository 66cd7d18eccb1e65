import { Effect, Logger, LogLevel } from "effect"
import type { Environment } from "../../../../core/shared/environment.js"
import type {
  CheckoutContext,
  DisputeEvidenceContext,
  NotificationContext,
  PayoutContext,
  RefundContext,
  ReturnContext,
  SyncContext
} from "../../../../core/gateways/gateway-plugin.js"
import { hostPlugin } from "../../../../core/gateways/plugin-hosting.js"
import { parseStripeCheckoutConfig } from "../stripe-checkout-config.js"
import { makeStripeCheckoutPlugin } from "../stripe-checkout-plugin.js"
import { type FakeStripe, sessionIdFromRedirect, type SignedDelivery } from "./fake-stripe.js"

export const WEBHOOK_SECRET = "whsec_fakeWebhookSecret000000000000"
export const GATEWAY = { id: 7, code: "stripe-usd", name: "Stripe" } as const

export interface Payment {
  readonly trxId: string
  readonly amount: string
  readonly currency: string
  readonly environment?: Environment
}

let counter = 0
/** A fresh payment id per call, shaped as the kit's. */
export const newTrxId = (): string => `TRX_${Date.now().toString(36).toUpperCase()}_${(++counter).toString().padStart(6, "0")}`

/** The kit's own log lines are not what these tests read. */
export const run = <A, E>(effect: Effect.Effect<A, E>): Promise<A> => Effect.runPromise(effect.pipe(Logger.withMinimumLogLevel(LogLevel.None)))
export const failureOf = <A, E>(effect: Effect.Effect<A, E>): Promise<E> => run(Effect.flip(effect))

/** The plugin as the kit hosts it, pointed at the fake, with contexts built the way the kit builds them. */
export const makeHarness = (fake: FakeStripe, callTimeoutMillis = 2000) => {
  const plugin = hostPlugin(makeStripeCheckoutPlugin(), { callTimeoutMillis })
  const config = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
    secret_key: fake.secretKey,
    webhook_secret: WEBHOOK_SECRET,
    api_base: fake.apiBase,
    ...overrides
  })
  /** Contexts carry config as the kit hands it over: already parsed. */
  const parsed = (overrides: Record<string, unknown> = {}) => parseStripeCheckoutConfig(config(overrides))
  const checkout = (payment: Payment, overrides: Partial<CheckoutContext<unknown>> = {}): CheckoutContext<unknown> => ({
    trxId: payment.trxId,
    amount: payment.amount,
    currency: payment.currency,
    displayAmount: payment.amount,
    description: null,
    merchantName: "Corner Shop",
    environment: payment.environment ?? "sandbox",
    gateway: GATEWAY,
    config: parsed(),
    returnUrl: `https://kit.example/checkout/return?trx_id=${payment.trxId}`,
    cancelUrl: `https://kit.example/checkout/cancel?trx_id=${payment.trxId}`,
    notifyUrl: "https://kit.example/gateways/7/notify",
    ...overrides
  })
  const returned = (payment: Payment, fields: Record<string, string>, gatewayReference: string | null = null): ReturnContext<unknown> => ({
    trxId: payment.trxId, amount: payment.amount, currency: payment.currency, environment: payment.environment ?? "sandbox",
    gateway: GATEWAY, config: parsed(), fields, gatewayReference
  })
  const sync = (payment: Payment, gatewayReference: string | null): SyncContext<unknown> => ({
    trxId: payment.trxId, amount: payment.amount, currency: payment.currency, environment: payment.environment ?? "sandbox",
    gateway: GATEWAY, config: parsed(), gatewayReference
  })
  const refund = (payment: Payment, gatewayReference: string | null, amount: string, idempotencyKey: string): RefundContext<unknown> => ({
    trxId: payment.trxId, refundTrxId: `R${payment.trxId}`, gatewayReference, amount, currency: payment.currency, idempotencyKey,
    environment: payment.environment ?? "sandbox", gateway: GATEWAY, config: parsed()
  })
  const notification = (delivery: SignedDelivery, environment: Environment = "sandbox"): NotificationContext<unknown> => ({
    rawBody: delivery.rawBody, headers: delivery.headers, config: parsed(), environment, gateway: GATEWAY
  })
  /** An approved payout to a connected account, as the kit hands it to the plugin (idempotency key: the payout's id). */
  const payout = (fields: { readonly payoutId: string; readonly amount: string; readonly currency: string; readonly accountId: string; readonly environment?: Environment }): PayoutContext<unknown> => ({
    payoutId: fields.payoutId, merchantId: 42, amount: fields.amount, currency: fields.currency, environment: fields.environment ?? "sandbox",
    destination: { type: "stripe_account", accountId: fields.accountId }, idempotencyKey: fields.payoutId, gateway: GATEWAY, config: parsed()
  })
  /** A merchant's evidence on a dispute, as the kit hands it to the plugin. */
  const evidence = (
    payment: Payment,
    fields: { readonly gatewayDisputeId: string | null; readonly text: string; readonly files?: ReadonlyArray<{ readonly name: string; readonly contentBase64: string }> }
  ): DisputeEvidenceContext<unknown> => ({
    trxId: payment.trxId, amount: payment.amount, currency: payment.currency, environment: payment.environment ?? "sandbox",
    gateway: GATEWAY, config: parsed(), disputeId: `dp_kit_${payment.trxId}`, gatewayDisputeId: fields.gatewayDisputeId,
    text: fields.text, files: fields.files ?? []
  })
  /** Checkout begun at the fake; the session id the customer is sent to. */
  const begin = async (payment: Payment): Promise<string> => {
    const start = await run(plugin.beginCheckout(checkout(payment)))
    if (!("redirect" in start)) throw new Error("expected a redirect")
    return sessionIdFromRedirect(start.redirect)
  }
  return { plugin, config, parsed, checkout, returned, sync, refund, notification, payout, evidence, begin }
}
