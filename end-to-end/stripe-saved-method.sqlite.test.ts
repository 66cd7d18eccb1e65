import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { HttpApp } from "@effect/platform"
import { Effect, Logger, LogLevel, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeStripeCheckoutPlugin } from "../adapters/gateways/stripe-checkout/index.js"
import { type FakeStripe, makeFakeStripe } from "../adapters/gateways/stripe-checkout/testing/fake-stripe.js"
import { httpApp } from "../adapters/http/app.js"
import { createGateway } from "../core/gateways/gateway-admin.js"
import type { Gateway } from "../core/gateways/gateway.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../core/merchants/merchant-admin.js"
import { CheckoutAttempts } from "../core/payments/checkout-attempts.js"
import { defaultSiteSettings } from "../core/settings/site-settings.js"
import { SubscriptionRepository } from "../core/subscriptions/subscription-repository.js"
import { createWallet } from "../core/wallets/wallet-admin.js"
import { defaultWebhookConfig, kitLayer } from "../hosts/kit-layer.js"
import type { TestCaller } from "../testing/http/signed-client.js"
import { kitCalls } from "./suites/payout-suite.js"
import { testKitConfig } from "./suites/test-kit-config.js"

const WEBHOOK_SECRET = "whsec_savedMethodSuite00000000000000"
const FORM = { "content-type": "application/x-www-form-urlencoded" }

/**
 * A subscription's first invoice paid through Stripe Checkout, told to the kit by Stripe's
 * `checkout.session.completed` alone: the card is kept for renewals as a return would keep it, and
 * the customer's later return keeps the same one, once.
 */
describe("Stripe: a card saved by the notification alone", () => {
  const fake: FakeStripe = makeFakeStripe()
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let handler: (request: Request) => Promise<Response>
  let caller: TestCaller
  let gateway: Gateway

  beforeAll(async () => {
    await fake.start()
    runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-stripe-saved-")), "store.db") }, {
      settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
      // The subscription's ipn_url on loopback; no webhook is sent (background jobs are off).
      webhooks: { ...defaultWebhookConfig, allowPrivateTargets: true },
      plugins: [makeStripeCheckoutPlugin()]
    })))
    handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Error)))
    const shop = await runtime.runPromise(Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Card keeper", status: "approved" })
      yield* replaceCurrencies(merchant.id, ["USD"])
      yield* createWallet(merchant.id, "USD", "sandbox")
      const gateway = yield* createGateway({
        plugin: "stripe-checkout", name: "Stripe", currencyCode: "USD", method: "stripe_saved", type: "automatic", active: true,
        config: { secret_key: fake.secretKey, webhook_secret: WEBHOOK_SECRET, api_base: fake.apiBase }
      })
      const issued = yield* issueCredentials(merchant.id, "sandbox")
      return { gateway, caller: { environment: "sandbox", merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret } as const }
    }))
    gateway = shop.gateway as Gateway
    caller = shop.caller
  }, 60_000)
  afterAll(async () => {
    await runtime?.dispose()
    await fake.close()
  })

  const subscriptionOf = (id: string) =>
    runtime.runPromise(Effect.map(Effect.flatMap(SubscriptionRepository, (repo) => repo.findById(id)), Option.getOrThrow))

  it("keeps the card a checkout.session.completed reports, and the customer's return after it keeps the same one", async () => {
    const calls = kitCalls(handler)
    const created = await calls.merchant(caller, "POST", "/api/v1/subscriptions", {
      external_reference: "stripe-saved-1", billing_cycle: "monthly", payment_amount: "25.00", currency_code: "USD",
      customer_email: "saver@example.com", success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel",
      ipn_url: "http://127.0.0.1:9/ipn"
    })
    expect(created.status, created.text).toBe(201)
    const { id, latest_invoice: invoice } = created.body.data
    // The customer picks Stripe on the hosted checkout and pays there, saving the card.
    const chosen = await handler(new Request(`${invoice.payment_url}/pay`, { method: "POST", headers: FORM, body: `gateway_id=${gateway.id}` }))
    expect(chosen.status).toBe(303)
    const attempt = await runtime.runPromise(Effect.flatMap(CheckoutAttempts, (attempts) => attempts.find(invoice.trx_id, gateway.id)))
    const session = Option.getOrThrow(attempt).gatewayReference!
    const saved = fake.payAndSave(session, "succeeds", "4444")

    // Only Stripe's notification arrives.
    const delivery = fake.event("checkout.session.completed", session, { secret: WEBHOOK_SECRET })
    const heard = await handler(new Request(`https://pay.example/gateways/${gateway.id}/notify?environment=sandbox`, {
      method: "POST", headers: delivery.headers, body: delivery.rawBody
    }))
    expect(heard.status).toBe(200)
    const retrieved = await calls.merchant(caller, "GET", `/api/v1/subscriptions/${id}`)
    expect(retrieved.body.data).toMatchObject({
      status: "active",
      latest_invoice: { status: "paid" },
      saved_payment_method: { brand: "visa", last4: "4444", exp_month: 8, exp_year: 2031 }
    })
    const kept = (await subscriptionOf(id)).savedMethodId
    expect(kept).not.toBeNull()
    expect(fake.requests().some((request) => request.method === "GET" && request.path === `/v1/payment_intents/${fake.session(session)["payment_intent"]}`)).toBe(true)
    expect(saved.customer).toMatch(/^cus_/)

    // The customer comes back afterwards: the same card, kept once (the subscription still names the first record).
    const back = await handler(new Request(`${invoice.payment_url}/return/${gateway.id}`, { method: "POST", headers: FORM, body: `session_id=${session}` }))
    expect(back.status).toBeLessThan(400)
    expect((await subscriptionOf(id)).savedMethodId).toBe(kept)
  })
})
