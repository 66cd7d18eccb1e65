import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe, signStripePayload } from "./testing/fake-stripe.js"
import { makeHarness, newTrxId, type Payment, run, WEBHOOK_SECRET } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

const payment = (amount = "12.50", currency = "USD"): Payment => ({ trxId: newTrxId(), amount, currency })
const paidSession = async (p: Payment) => {
  const id = await stripe.begin(p)
  fake.pay(id)
  return id
}
const DUE = 1_900_000_000
const dispute = (type: string, sessionId: string, fields: { readonly id: string; readonly status: string; readonly amount?: number; readonly livemode?: boolean }) =>
  run(stripe.plugin.handleNotification(stripe.notification(fake.disputeEvent(type, sessionId, { reason: "product_not_received", dueBy: DUE, ...fields }, { secret: WEBHOOK_SECRET }))))

describe("stripe-checkout handleNotification: charge.dispute.* events", () => {
  it("reports a dispute opened, updated and closed won or lost, naming the payment Stripe's PaymentIntent was made for", async () => {
    const p = payment("12.50", "USD")
    const session = await paidSession(p)
    const common = { gatewayDisputeId: "du_test_1", trxId: p.trxId, currency: "USD", reason: "product_not_received", evidenceDueBy: "2030-03-17T17:46:40.000Z" }
    expect(await dispute("charge.dispute.created", session, { id: "du_test_1", status: "needs_response", amount: 1000 })).toEqual({
      dispute: { event: "opened", ...common, amount: "10.00", status: "needs_response" }
    })
    expect(await dispute("charge.dispute.updated", session, { id: "du_test_1", status: "under_review", amount: 1000 })).toEqual({
      dispute: { event: "updated", ...common, amount: "10.00", status: "under_review" }
    })
    expect(await dispute("charge.dispute.closed", session, { id: "du_test_1", status: "won", amount: 1000 })).toEqual({
      dispute: { event: "closed", ...common, amount: "10.00", outcome: "won" }
    })
    expect(await dispute("charge.dispute.closed", session, { id: "du_test_1", status: "lost" })).toMatchObject({ dispute: { event: "closed", amount: "12.50", outcome: "lost" } })
    // The plugin asked Stripe which payment the PaymentIntent belongs to, with the secret key.
    expect(fake.requests().some((request) => request.method === "GET" && request.path.startsWith("/v1/payment_intents/pi_"))).toBe(true)
  })

  it("reads Stripe's amounts in the currency's own digits (JPY has none)", async () => {
    const p = payment("1500", "JPY")
    const session = await paidSession(p)
    expect(await dispute("charge.dispute.created", session, { id: "du_test_jpy", status: "warning_needs_response" })).toMatchObject({
      dispute: { event: "opened", trxId: p.trxId, amount: "1500", currency: "JPY", status: "needs_response" }
    })
  })

  it("acknowledges without a report an inquiry closed with a warning, a test-mode dispute at a production record, and a PaymentIntent it did not make", async () => {
    const session = await paidSession(payment())
    expect(await dispute("charge.dispute.closed", session, { id: "du_test_2", status: "warning_closed" })).toEqual({ ignore: true })
    expect(await run(stripe.plugin.handleNotification(stripe.notification(
      fake.disputeEvent("charge.dispute.created", session, { id: "du_test_3", status: "needs_response" }, { secret: WEBHOOK_SECRET }), "production"
    )))).toEqual({ ignore: true })
    // Signed by Stripe, but on a PaymentIntent Stripe does not know of (another account's): no payment of the kit's.
    const foreign = new TextDecoder().decode(fake.disputeEvent("charge.dispute.created", session, { id: "du_test_4", status: "needs_response" }, { secret: WEBHOOK_SECRET }).rawBody)
      .replace(/"payment_intent": "pi_[A-Za-z0-9]+"/, '"payment_intent": "pi_unknown000"')
    expect(foreign).toContain("pi_unknown000")
    const headers = { "stripe-signature": signStripePayload(foreign, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)) }
    expect(await run(stripe.plugin.handleNotification(stripe.notification({ rawBody: new TextEncoder().encode(foreign), headers })))).toEqual({ ignore: true })
  })

  it("refuses an unsigned dispute event with a 400, as every other event that does not verify and names no checkout", async () => {
    const session = await paidSession(payment())
    const delivery = fake.disputeEvent("charge.dispute.created", session, { id: "du_test_5", status: "needs_response" }, { secret: "whsec_someoneElse" })
    expect(await run(stripe.plugin.handleNotification(stripe.notification(delivery)))).toEqual({ ignore: true, reply: { status: 400 } })
  })
})
