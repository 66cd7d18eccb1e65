import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe, type SignedDelivery, signStripePayload } from "./testing/fake-stripe.js"
import { makeHarness, newTrxId, type Payment, run, WEBHOOK_SECRET } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

const payment = (amount = "12.50", currency = "USD"): Payment => ({ trxId: newTrxId(), amount, currency })
const notify = (delivery: SignedDelivery, environment: "sandbox" | "production" = "sandbox") =>
  run(stripe.plugin.handleNotification(stripe.notification(delivery, environment)))
const signed = (type: string, sessionId: string, timestamp?: number) =>
  fake.event(type, sessionId, { secret: WEBHOOK_SECRET, ...(timestamp !== undefined ? { timestamp } : {}) })

/** A session at the fake for a new payment, moved on by `advance`. */
const sessionFor = async (p: Payment, advance: (id: string) => void = () => undefined) => {
  const id = await stripe.begin(p)
  advance(id)
  return id
}

describe("stripe-checkout handleNotification: signed checkout events", () => {
  it("reports each checkout event with Stripe's amount, upper-case currency and the session id", async () => {
    const paid = payment()
    const paidId = await sessionFor(paid, fake.pay)
    expect(await notify(signed("checkout.session.completed", paidId))).toEqual({
      trxId: paid.trxId, outcome: "paid", amount: "12.50", currency: "USD", gatewayReference: paidId, verified: true
    })

    const delayed = payment("1500", "JPY")
    const delayedId = await sessionFor(delayed, fake.payLater)
    expect(await notify(signed("checkout.session.completed", delayedId))).toMatchObject({ trxId: delayed.trxId, outcome: "pending", amount: "1500", currency: "JPY", verified: true })
    fake.asyncSucceed(delayedId)
    expect(await notify(signed("checkout.session.async_payment_succeeded", delayedId))).toMatchObject({ trxId: delayed.trxId, outcome: "paid", verified: true })

    const failed = payment("1.234", "KWD")
    const failedId = await sessionFor(failed, fake.payLater)
    fake.asyncFail(failedId)
    expect(await notify(signed("checkout.session.async_payment_failed", failedId))).toMatchObject({ trxId: failed.trxId, outcome: "declined", amount: "1.234", currency: "KWD", verified: true })

    const expired = payment()
    const expiredId = await sessionFor(expired, fake.expire)
    expect(await notify(signed("checkout.session.expired", expiredId))).toEqual({
      trxId: expired.trxId, outcome: "cancelled", amount: "12.50", currency: "USD", gatewayReference: expiredId, verified: true
    })
  })

  it("acknowledges other events without a report", async () => {
    const id = await sessionFor(payment(), fake.pay)
    expect(await notify(signed("payment_intent.succeeded", id))).toEqual({ ignore: true })
    expect(await notify(signed("checkout.session.async_payment_succeeded", id), "production")).toEqual({ ignore: true })
  })
})

describe("stripe-checkout handleNotification: deliveries that do not verify", () => {
  const unverifiedFor = (p: Payment) => ({ trxId: p.trxId, outcome: "pending", verified: false })

  it("names the payment, unverified, when the secret is wrong, the signature old, missing or the body changed", async () => {
    const p = payment()
    const id = await sessionFor(p, fake.pay)
    const wrongSecret = fake.event("checkout.session.completed", id, { secret: "whsec_someoneElse" })
    expect(await notify(wrongSecret)).toEqual(unverifiedFor(p))

    const old = signed("checkout.session.completed", id, Math.floor(Date.now() / 1000) - 301)
    expect(await notify(old)).toEqual(unverifiedFor(p))

    const { "stripe-signature": _signature, ...unsigned } = signed("checkout.session.completed", id).headers
    expect(await notify({ rawBody: signed("checkout.session.completed", id).rawBody, headers: unsigned })).toEqual(unverifiedFor(p))

    const genuine = signed("checkout.session.completed", id)
    const tampered = new TextDecoder().decode(genuine.rawBody).replace('"amount_total": 1250', '"amount_total": 1')
    expect(tampered).not.toBe(new TextDecoder().decode(genuine.rawBody))
    expect(await notify({ rawBody: new TextEncoder().encode(tampered), headers: genuine.headers })).toEqual(unverifiedFor(p))
  })

  it("accepts a signature within the five-minute tolerance", async () => {
    const p = payment()
    const id = await sessionFor(p, fake.pay)
    expect(await notify(signed("checkout.session.completed", id, Math.floor(Date.now() / 1000) - 240))).toMatchObject({ trxId: p.trxId, verified: true })
  })

  it("refuses with a 400 what names no checkout payment, whatever its signature", async () => {
    const refused = { ignore: true, reply: { status: 400 } }
    const asBody = (text: string) => new TextEncoder().encode(text)
    const header = (payload: string) => ({ "stripe-signature": signStripePayload(payload, "whsec_forger", Math.floor(Date.now() / 1000)) })
    expect(await notify({ rawBody: asBody("not json"), headers: header("not json") })).toEqual(refused)
    expect(await notify({ rawBody: new Uint8Array([0xff, 0xfe, 0x00]), headers: {} })).toEqual(refused)
    const otherType = JSON.stringify({ type: "charge.succeeded", data: { object: { client_reference_id: "TRX_1" } } })
    expect(await notify({ rawBody: asBody(otherType), headers: header(otherType) })).toEqual(refused)
    const noReference = JSON.stringify({ type: "checkout.session.completed", data: { object: { id: "cs_test_x", client_reference_id: null } } })
    expect(await notify({ rawBody: asBody(noReference), headers: header(noReference) })).toEqual(refused)
    const tooLong = JSON.stringify({ type: "checkout.session.completed", data: { object: { client_reference_id: "T".repeat(65) } } })
    expect(await notify({ rawBody: asBody(tooLong), headers: {} })).toEqual(refused)
  })
})
