import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { failureOf, makeHarness, newTrxId, type Payment, run } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

/** A payment paid at the fake; its session id and PaymentIntent. */
const paidPayment = async (amount = "12.50", currency = "USD") => {
  const p: Payment = { trxId: newTrxId(), amount, currency }
  const sessionId = await stripe.begin(p)
  fake.pay(sessionId)
  return { payment: p, sessionId, paymentIntent: fake.session(sessionId)["payment_intent"] as string }
}

const refund = (p: Payment, sessionId: string | null, amount: string, key: string) => stripe.plugin.refund(stripe.refund(p, sessionId, amount, key))

describe("stripe-checkout refund", () => {
  it("refunds the session's PaymentIntent in Stripe's units, under the kit's idempotency key", async () => {
    const { payment, sessionId, paymentIntent } = await paidPayment("1500", "JPY")
    const report = await run(refund(payment, sessionId, "500", "refund-key-1"))
    expect(report).toEqual({ status: "succeeded", gatewayRefundReference: expect.stringMatching(/^re_/) })
    const recorded = fake.refundsFor(paymentIntent)
    expect(recorded).toHaveLength(1)
    expect(recorded[0]!.idempotencyKey).toBe("refund-key-1")
    expect(recorded[0]!.refund).toMatchObject({
      id: report.gatewayRefundReference, object: "refund", amount: 500, currency: "jpy", payment_intent: paymentIntent,
      metadata: { trx_id: payment.trxId, refund_trx_id: `R${payment.trxId}` }
    })
  })

  it("creates one refund however often the kit retries with the same key, even after Stripe failed once", async () => {
    const { payment, sessionId, paymentIntent } = await paidPayment()
    fake.failNextRefund(500)
    expect(await failureOf(refund(payment, sessionId, "5.00", "retry-key"))).toMatchObject({ _tag: "PluginCallFailed", reason: "threw" })
    fake.failNextRefund(429)
    expect(await failureOf(refund(payment, sessionId, "5.00", "retry-key"))).toMatchObject({ reason: "threw" })
    const first = await run(refund(payment, sessionId, "5.00", "retry-key"))
    const replayed = await run(refund(payment, sessionId, "5.00", "retry-key"))
    expect(first.status).toBe("succeeded")
    expect(replayed).toEqual(first)
    expect(fake.refundsFor(paymentIntent)).toHaveLength(1)
  })

  it("never reports a reused key with other parameters as a plain failure: the first request may have paid", async () => {
    const { payment, sessionId, paymentIntent } = await paidPayment()
    await run(refund(payment, sessionId, "5.00", "reused-key"))
    const failure = await failureOf(refund(payment, sessionId, "6.00", "reused-key"))
    expect(failure).toMatchObject({ reason: "threw", message: expect.stringMatching(/idempotency key/) })
    expect(fake.refundsFor(paymentIntent)).toHaveLength(1)
  })

  it("maps Stripe's refund statuses: pending and requires_action wait, failed and canceled fail", async () => {
    const { payment, sessionId } = await paidPayment("100.00")
    fake.nextRefundStatus("pending")
    expect(await run(refund(payment, sessionId, "1.00", "s-1"))).toMatchObject({ status: "pending", gatewayRefundReference: expect.stringMatching(/^re_/) })
    fake.nextRefundStatus("requires_action")
    expect(await run(refund(payment, sessionId, "1.00", "s-2"))).toMatchObject({ status: "pending" })
    fake.nextRefundStatus("failed", "lost_or_stolen_card")
    expect(await run(refund(payment, sessionId, "1.00", "s-3"))).toMatchObject({
      status: "failed", message: "Stripe could not refund the payment: lost_or_stolen_card"
    })
    fake.nextRefundStatus("canceled")
    expect(await run(refund(payment, sessionId, "1.00", "s-4"))).toMatchObject({ status: "failed", message: "the refund was canceled at Stripe" })
  })

  it("fails with Stripe's message when Stripe refuses the request itself", async () => {
    const { payment, sessionId } = await paidPayment()
    expect(await run(refund(payment, sessionId, "20.00", "too-much"))).toEqual({
      status: "failed", message: "Refund amount (2000) is greater than unrefunded amount on charge (1250)"
    })
    fake.failNextRefund(402)
    expect(await run(refund(payment, sessionId, "1.00", "card-error"))).toMatchObject({ status: "failed", message: expect.stringMatching(/HTTP 402/) })
    fake.failNextRefund(400)
    expect(await run(refund(payment, sessionId, "1.00", "bad-request"))).toMatchObject({ status: "failed" })
  })

  it("fails without calling refunds when there is nothing of this payment's to refund", async () => {
    const unpaid: Payment = { trxId: newTrxId(), amount: "12.50", currency: "USD" }
    const unpaidSession = await stripe.begin(unpaid)
    const { sessionId: othersSession } = await paidPayment()
    const before = fake.requests().filter((request) => request.path === "/v1/refunds").length
    expect(await run(refund(unpaid, null, "1.00", "k1"))).toEqual({ status: "failed", message: "this payment has no Stripe Checkout Session to refund" })
    expect(await run(refund(unpaid, unpaidSession, "1.00", "k2"))).toEqual({ status: "failed", message: "the Stripe Checkout Session has no payment to refund" })
    expect(await run(refund(unpaid, othersSession, "1.00", "k3"))).toEqual({ status: "failed", message: "the Stripe Checkout Session on record belongs to another payment" })
    expect(await run(refund(unpaid, "cs_test_doesNotExist", "1.00", "k4"))).toMatchObject({ status: "failed", message: expect.stringMatching(/No such checkout.session/) })
    expect(fake.requests().filter((request) => request.path === "/v1/refunds").length).toBe(before)
  })

  it("throws, to be retried, when Stripe cannot be reached or refuses the key", async () => {
    const { payment, sessionId } = await paidPayment()
    const wrongKey = { ...stripe.refund(payment, sessionId, "1.00", "k5"), config: stripe.parsed({ secret_key: "sk_test_rotatedAway9876" }) }
    const failure = await failureOf(stripe.plugin.refund(wrongKey))
    expect(failure).toMatchObject({ reason: "threw", message: "Stripe refused this gateway's secret_key (authentication failed)" })
    const unreachable = { ...stripe.refund(payment, sessionId, "1.00", "k6"), config: stripe.parsed({ api_base: "http://127.0.0.1:9" }) }
    expect(await failureOf(stripe.plugin.refund(unreachable))).toMatchObject({ reason: "threw", message: expect.stringMatching(/could not reach Stripe/) })
  })
})
