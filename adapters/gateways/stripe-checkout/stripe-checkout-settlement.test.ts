import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { GATEWAY, makeHarness, newTrxId, run } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)

beforeAll(() => fake.start())
afterAll(() => fake.close())

const DAY = 86_400
const nowSeconds = () => Math.floor(Date.now() / 1000)

const paidSession = async (amount: string, currency: string) => {
  const payment = { trxId: newTrxId(), amount, currency }
  const sessionId = await stripe.begin(payment)
  fake.pay(sessionId)
  return { payment, sessionId }
}

describe("stripe-checkout settlement report", () => {
  it("reads every page of the period's balance transactions as settlement lines the kit can match", async () => {
    const usd = await paidSession("12.50", "USD")
    const jpy = await paidSession("1500", "JPY")
    const refund = await run(stripe.plugin.refund(stripe.refund(usd.payment, usd.sessionId, "5.00", "settle-refund-1")))
    fake.settleCharge(usd.sessionId, 66)
    fake.settleCharge(jpy.sessionId, 0)
    fake.settleRefund(refund.gatewayRefundReference!)
    // More than a page of payouts, a category the kit has no use for, and a charge settled before the period.
    for (let i = 0; i < 120; i++) fake.addBalanceTransaction({ reportingCategory: "payout", amount: -100, currency: "usd", source: null })
    fake.addBalanceTransaction({ reportingCategory: "topup", amount: 5000, currency: "usd", source: null })
    fake.settleCharge(usd.sessionId, 66, nowSeconds() - 3 * DAY)

    const from = new Date((nowSeconds() - DAY) * 1000).toISOString()
    const to = new Date((nowSeconds() + DAY) * 1000).toISOString()
    const lines = await run(stripe.plugin.settlementReport!({ environment: "sandbox", gateway: GATEWAY, config: stripe.parsed(), from, to }))

    const settledAt = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/)
    expect(lines.filter((line) => line.type !== "payout")).toEqual([
      { gatewayReference: usd.sessionId, type: "payment", amount: "12.50", currency: "USD", settledAt },
      { gatewayReference: usd.sessionId, type: "fee", amount: "-0.66", currency: "USD", settledAt },
      { gatewayReference: jpy.sessionId, type: "payment", amount: "1500", currency: "JPY", settledAt },
      { gatewayReference: refund.gatewayRefundReference, type: "refund", amount: "-5.00", currency: "USD", settledAt }
    ])
    const payouts = lines.filter((line) => line.type === "payout")
    expect(payouts).toHaveLength(120)
    expect(payouts[0]).toMatchObject({ amount: "-1.00", currency: "USD", gatewayReference: expect.stringMatching(/^txn_/) })

    const listed = fake.requests().filter((request) => request.path === "/v1/balance_transactions")
    expect(listed).toHaveLength(2)
    expect(listed[0]!.params).toMatchObject({ "created[gte]": String(Date.parse(from) / 1000), "created[lt]": String(Date.parse(to) / 1000), "expand[0]": "data.source", limit: "100" })
    expect(listed[1]!.params["starting_after"]).toMatch(/^txn_/)
  })

  it("names a dispute's withdrawal, its fee and its reinstatement by Stripe's dispute id, and a Connect transfer by its tr_ id", async () => {
    const usd = await paidSession("40.00", "USD")
    const dispute = fake.openDispute(usd.sessionId, { amount: 2500 })
    fake.settleDispute(dispute["id"] as string, 1500)
    fake.closeDispute(dispute["id"] as string, "won")
    fake.reinstateDispute(dispute["id"] as string)
    fake.connectAccount("acct_settled")
    fake.fund("usd", 10_000n)
    const sent = await run(stripe.plugin.sendPayout(stripe.payout({ payoutId: "po_kit_settled", amount: "30.00", currency: "USD", accountId: "acct_settled" })))
    fake.settleTransfer(sent.reference!)

    const from = new Date((nowSeconds() - DAY) * 1000).toISOString()
    const to = new Date((nowSeconds() + DAY) * 1000).toISOString()
    const lines = await run(stripe.plugin.settlementReport!({ environment: "sandbox", gateway: GATEWAY, config: stripe.parsed(), from, to }))
    const named = (reference: string) => lines.filter((line) => line.gatewayReference === reference).map(({ type, amount }) => ({ type, amount }))
    expect(named(dispute["id"] as string)).toEqual([
      { type: "dispute", amount: "-25.00" },
      { type: "fee", amount: "-15.00" },
      { type: "dispute", amount: "25.00" }
    ])
    expect(sent.reference).toMatch(/^tr_/)
    expect(named(sent.reference!)).toEqual([{ type: "payout", amount: "-30.00" }])
  })

  it("fails the call when Stripe refuses the key, so the run is answered as the gateway being out of reach", async () => {
    const config = stripe.parsed({ secret_key: "sk_test_wrongKey000000000000000000000" })
    const failure = await run(Effect.flip(stripe.plugin.settlementReport!({
      environment: "sandbox", gateway: GATEWAY, config, from: "2030-01-01T00:00:00Z", to: "2030-02-01T00:00:00Z"
    })))
    expect(failure).toMatchObject({ _tag: "PluginCallFailed", call: "settlementReport" })
  })
})
