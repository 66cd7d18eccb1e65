import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SetupContext, SetupReturnContext } from "../../../core/gateways/gateway-plugin.js"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { GATEWAY, makeHarness, newTrxId, run, WEBHOOK_SECRET } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

let counter = 0
const setupContext = (currentMethod: string | null, overrides: Partial<SetupContext<unknown>> = {}): SetupContext<unknown> => {
  const setupId = `setup-${++counter}-${Date.now().toString(36)}`
  return {
    setupId, currency: "EUR", environment: "sandbox", gateway: GATEWAY, config: stripe.parsed(), merchantName: "Corner Shop",
    customerEmail: "saver@example.com", customerName: "Sam Saver", currentMethod,
    returnUrl: `https://kit.example/customer-portal/method-setups/${setupId}/return?locale=fr`,
    cancelUrl: "https://kit.example/customer-portal?notice=methodUnchanged",
    ...overrides
  }
}
const returned = (context: SetupContext<unknown>, fields: Record<string, string>, gatewayReference: string | null = null): SetupReturnContext<unknown> => ({
  setupId: context.setupId, environment: context.environment, gateway: context.gateway, config: context.config, fields, gatewayReference
})
const sessionRequests = () => fake.requests().filter((request) => request.method === "POST" && request.path === "/v1/checkout/sessions")

/** A card saved at a subscription's checkout: the method a setup replaces. */
const savedCard = async () => {
  const p = { trxId: newTrxId(), amount: "25.00", currency: "EUR" }
  const start = await run(stripe.plugin.beginCheckout(stripe.checkout(p, { saveMethod: { usage: "off_session", customerEmail: "saver@example.com", customerName: null } })))
  fake.payAndSave(start.gatewayReference!, "insufficient_funds", "9995")
  const report = await run(stripe.plugin.handleReturn(stripe.returned(p, { session_id: start.gatewayReference! })))
  return report.savedMethod!.reference
}

describe("stripe-checkout setup-only sessions", () => {
  it("a setup session names the current Customer, the currency and the setup; its completed return reports the new card", async () => {
    expect(stripe.plugin.methodSetup).toBe(true)
    const current = await savedCard()
    const [customer] = current.split("|")
    const context = setupContext(current)
    const start = await run(stripe.plugin.beginSetup(context))
    if (!("redirect" in start)) throw new Error("expected a redirect")
    expect(start.redirect).toContain("/pay/cs_test_c1")
    const sent = sessionRequests().at(-1)!
    expect(sent.params).toMatchObject({
      mode: "setup",
      currency: "eur",
      customer,
      client_reference_id: context.setupId,
      "metadata[setup_id]": context.setupId,
      "setup_intent_data[metadata][setup_id]": context.setupId,
      success_url: `${context.returnUrl}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: context.cancelUrl
    })
    // No money moves: no line items, no PaymentIntent settings.
    expect(Object.keys(sent.params).some((key) => key.startsWith("line_items") || key.startsWith("payment_intent_data"))).toBe(false)

    const saved = fake.completeSetup(start.gatewayReference!, "succeeds", "1881")
    expect(saved.customer).toBe(customer)
    const report = await run(stripe.plugin.handleSetupReturn(returned(context, { session_id: start.gatewayReference!, locale: "fr" })))
    expect(report).toEqual({
      outcome: "saved", verified: true,
      savedMethod: { reference: `${customer}|${saved.paymentMethod}`, brand: "visa", last4: "1881", expMonth: 9, expYear: 2032 }
    })
    const retrieved = fake.requests().filter((request) => request.method === "GET" && request.path.startsWith("/v1/setup_intents/")).at(-1)!
    expect(retrieved.params).toMatchObject({ "expand[0]": "payment_method" })

    // The new card is charged off-session against the same Customer.
    const charged = await run(stripe.plugin.chargeSaved({
      method: (report as { savedMethod: { reference: string } }).savedMethod.reference, amount: "25.00", currency: "EUR", reference: "INV-9",
      idempotencyKey: `renewal-${context.setupId}`, environment: "sandbox", gateway: GATEWAY, config: stripe.parsed()
    }))
    expect(charged.status).toBe("paid")
  })

  it("without a Stripe card on record, the setup session creates a Customer for the customer's e-mail", async () => {
    const context = setupContext(null)
    const start = await run(stripe.plugin.beginSetup(context))
    expect(sessionRequests().at(-1)!.params).toMatchObject({ mode: "setup", customer_creation: "always", customer_email: "saver@example.com" })
    const saved = fake.completeSetup(start.gatewayReference!)
    const report = await run(stripe.plugin.handleSetupReturn(returned(context, {}, start.gatewayReference!)))
    expect(report).toMatchObject({ outcome: "saved", savedMethod: { reference: `${saved.customer}|${saved.paymentMethod}` } })
  })

  it("another setup's session, a payment session, an open or expired one, or a forged id is not reported as saved", async () => {
    const context = setupContext(null)
    const other = setupContext(null)
    const start = await run(stripe.plugin.beginSetup(context))
    const otherStart = await run(stripe.plugin.beginSetup(other))
    expect(await run(stripe.plugin.handleSetupReturn(returned(context, { session_id: start.gatewayReference! })))).toEqual({ outcome: "pending", verified: true })
    fake.completeSetup(otherStart.gatewayReference!)
    expect(await run(stripe.plugin.handleSetupReturn(returned(context, { session_id: otherStart.gatewayReference! })))).toEqual({ outcome: "pending", verified: false })
    const p = { trxId: newTrxId(), amount: "5.00", currency: "EUR" }
    const payment = await run(stripe.plugin.beginCheckout(stripe.checkout(p)))
    fake.pay(payment.gatewayReference!)
    expect(await run(stripe.plugin.handleSetupReturn(returned(context, { session_id: payment.gatewayReference! })))).toEqual({ outcome: "pending", verified: false })
    expect(await run(stripe.plugin.handleSetupReturn(returned(context, { session_id: "cs_test_nope" })))).toEqual({ outcome: "pending", verified: false })
    fake.expire(start.gatewayReference!)
    expect(await run(stripe.plugin.handleSetupReturn(returned(context, { session_id: start.gatewayReference! })))).toEqual({ outcome: "cancelled", verified: true })
  })

  it("a signed checkout.session.completed of a setup session names no payment: ignored", async () => {
    const context = setupContext(null)
    const start = await run(stripe.plugin.beginSetup(context))
    fake.completeSetup(start.gatewayReference!)
    const report = await run(stripe.plugin.handleNotification(stripe.notification(fake.event("checkout.session.completed", start.gatewayReference!, { secret: WEBHOOK_SECRET }))))
    expect(report).toEqual({ ignore: true })
  })
})
