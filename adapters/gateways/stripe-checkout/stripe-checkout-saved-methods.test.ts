import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { SavedMethodChargeContext } from "../../../core/gateways/gateway-plugin.js"
import { reportOfCardError } from "./stripe-saved-methods.js"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { GATEWAY, makeHarness, newTrxId, type Payment, run, WEBHOOK_SECRET } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

const payment = (amount = "25.00"): Payment => ({ trxId: newTrxId(), amount, currency: "USD" })
const SAVE = { usage: "off_session" as const, customerEmail: "saver@example.com", customerName: "Sam Saver" }

/** A subscription's first checkout at the fake, paid with a card saved as `behaviour`; the method's reference as reported. */
const saveCard = async (behaviour: Parameters<typeof fake.payAndSave>[1], last4 = "4242") => {
  const p = payment()
  const start = await run(stripe.plugin.beginCheckout(stripe.checkout(p, { saveMethod: SAVE })))
  if (!("redirect" in start)) throw new Error("expected a redirect")
  const saved = fake.payAndSave(start.gatewayReference!, behaviour, last4)
  const report = await run(stripe.plugin.handleReturn(stripe.returned(p, { session_id: start.gatewayReference! })))
  return { p, start, saved, report }
}

const charge = (method: string, idempotencyKey: string, amount = "25.00"): SavedMethodChargeContext<unknown> => ({
  method, amount, currency: "USD", reference: "INV-1", idempotencyKey, environment: "sandbox", gateway: GATEWAY, config: stripe.parsed()
})

const intentRequests = () => fake.requests().filter((request) => request.method === "POST" && request.path === "/v1/payment_intents")

describe("stripe-checkout saved methods", () => {
  it("a subscription's checkout creates a Customer and sets the card up for off-session use; the paid return reports it", async () => {
    const { p, report, saved } = await saveCard("succeeds", "1881")
    const sent = fake.requests().filter((request) => request.path === "/v1/checkout/sessions").at(-1)!
    expect(sent.params).toMatchObject({
      "payment_intent_data[setup_future_usage]": "off_session",
      customer_creation: "always",
      customer_email: "saver@example.com",
      "metadata[save_method]": "off_session",
      "payment_intent_data[metadata][trx_id]": p.trxId
    })
    expect(report).toMatchObject({
      outcome: "paid",
      verified: true,
      savedMethod: { reference: `${saved.customer}|${saved.paymentMethod}`, brand: "visa", last4: "1881", expMonth: 8, expYear: 2031 }
    })
    const retrieved = fake.requests().filter((request) => request.method === "GET" && request.path.startsWith("/v1/payment_intents/")).at(-1)!
    expect(retrieved.params).toMatchObject({ "expand[0]": "payment_method" })
  })

  it("a paid subscription checkout's checkout.session.completed reports the saved card as its return does", async () => {
    const p = payment()
    const start = await run(stripe.plugin.beginCheckout(stripe.checkout(p, { saveMethod: SAVE })))
    const saved = fake.payAndSave(start.gatewayReference!, "succeeds", "5100")
    const delivery = fake.event("checkout.session.completed", start.gatewayReference!, { secret: WEBHOOK_SECRET })
    // As Stripe sends it: the session names its PaymentIntent by id only, so the card must be asked for.
    expect(JSON.parse(new TextDecoder().decode(delivery.rawBody)).data.object.payment_intent).toMatch(/^pi_/)
    const heard = await run(stripe.plugin.handleNotification(stripe.notification(delivery)))
    const expected = { reference: `${saved.customer}|${saved.paymentMethod}`, brand: "visa", last4: "5100", expMonth: 8, expYear: 2031 }
    expect(heard).toMatchObject({ trxId: p.trxId, outcome: "paid", verified: true, savedMethod: expected })
    const retrieved = fake.requests().filter((request) => request.method === "GET" && request.path.startsWith("/v1/payment_intents/")).at(-1)!
    expect(retrieved.params).toMatchObject({ "expand[0]": "payment_method" })
    // The customer also comes back: the same method, which the kit keeps once.
    const returned = await run(stripe.plugin.handleReturn(stripe.returned(p, { session_id: start.gatewayReference! })))
    expect(returned).toMatchObject({ savedMethod: expected })
  })

  it("an unpaid or ordinary checkout's notification asks Stripe for no card", async () => {
    const before = fake.requests().filter((request) => request.path.startsWith("/v1/payment_intents/")).length
    const later = payment()
    const laterStart = await run(stripe.plugin.beginCheckout(stripe.checkout(later, { saveMethod: SAVE })))
    fake.payLater(laterStart.gatewayReference!)
    const pending = await run(stripe.plugin.handleNotification(stripe.notification(fake.event("checkout.session.completed", laterStart.gatewayReference!, { secret: WEBHOOK_SECRET }))))
    expect(pending).toMatchObject({ outcome: "pending", verified: true })
    expect("savedMethod" in pending).toBe(false)
    const ordinary = payment()
    const ordinaryStart = await run(stripe.plugin.beginCheckout(stripe.checkout(ordinary)))
    fake.pay(ordinaryStart.gatewayReference!)
    const paid = await run(stripe.plugin.handleNotification(stripe.notification(fake.event("checkout.session.completed", ordinaryStart.gatewayReference!, { secret: WEBHOOK_SECRET }))))
    expect(paid).toMatchObject({ outcome: "paid", verified: true })
    expect("savedMethod" in paid).toBe(false)
    expect(fake.requests().filter((request) => request.path.startsWith("/v1/payment_intents/")).length).toBe(before)
  })

  it("an ordinary checkout asks Stripe to save nothing, and its return reports no method", async () => {
    const p = payment()
    const start = await run(stripe.plugin.beginCheckout(stripe.checkout(p)))
    const sent = fake.requests().filter((request) => request.path === "/v1/checkout/sessions").at(-1)!
    expect(Object.keys(sent.params).some((key) => key.includes("setup_future_usage") || key === "customer_creation")).toBe(false)
    fake.pay(start.gatewayReference!)
    const report = await run(stripe.plugin.handleReturn(stripe.returned(p, { session_id: start.gatewayReference! })))
    expect(report).toEqual({ outcome: "paid", verified: true, gatewayReference: start.gatewayReference })
  })

  it("charges the saved card off-session through a confirmed PaymentIntent, under the kit's idempotency key", async () => {
    const { report } = await saveCard("succeeds")
    const answer = await run(stripe.plugin.chargeSaved(charge(report.savedMethod!.reference, "renewal-sub-1-1")))
    expect(answer).toMatchObject({ status: "paid" })
    expect(answer.status === "paid" && answer.gatewayReference.startsWith("pi_")).toBe(true)
    const sent = intentRequests().at(-1)!
    const [customer, paymentMethod] = report.savedMethod!.reference.split("|")
    expect(sent.params).toMatchObject({ amount: "2500", currency: "usd", customer, payment_method: paymentMethod, off_session: "true", confirm: "true", "metadata[reference]": "INV-1" })
    expect(sent.headers["idempotency-key"]).toBe("renewal-sub-1-1")
    // The same try again (a crash before the outcome was recorded): Stripe answers the same PaymentIntent.
    const again = await run(stripe.plugin.chargeSaved(charge(report.savedMethod!.reference, "renewal-sub-1-1")))
    expect(again).toEqual(answer)
  })

  it("maps Stripe's card errors: insufficient funds is soft, a lost card hard, authentication_required its own", async () => {
    for (const [behaviour, status] of [["insufficient_funds", "declined"], ["lost_card", "hard_declined"], ["authentication_required", "authentication_required"]] as const) {
      const { report } = await saveCard(behaviour)
      const answer = await run(stripe.plugin.chargeSaved(charge(report.savedMethod!.reference, `renewal-${behaviour}`)))
      expect(answer.status, behaviour).toBe(status)
      expect(answer.message, behaviour).toMatch(/card/i)
    }
  })

  it("a reference that is not a Stripe customer's card is a hard decline, with no request sent", async () => {
    const before = intentRequests().length
    expect(await run(stripe.plugin.chargeSaved(charge("sbx_pm_success_X", "k")))).toMatchObject({ status: "hard_declined" })
    expect(intentRequests().length).toBe(before)
  })
})

describe("reportOfCardError", () => {
  it("treats Stripe's hard decline codes as final and the rest as worth a retry", () => {
    for (const code of ["lost_card", "stolen_card", "pickup_card", "expired_card", "do_not_try_again", "fraudulent"]) {
      expect(reportOfCardError({ code: "card_declined", decline_code: code, message: "Declined." }).status, code).toBe("hard_declined")
    }
    for (const code of ["insufficient_funds", "generic_decline", "do_not_honor", "try_again_later", "card_velocity_exceeded", undefined]) {
      expect(reportOfCardError({ code: "card_declined", decline_code: code, message: "Declined." }).status, String(code)).toBe("declined")
    }
    expect(reportOfCardError({ code: "authentication_required", message: "Authenticate." }).status).toBe("authentication_required")
    expect(reportOfCardError({ code: "expired_card", message: "Expired." }).status).toBe("hard_declined")
  })
})
