import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { failureOf, makeHarness, run } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)
const ACCOUNT = "acct_1MerchantConnected0001"

beforeAll(async () => {
  await fake.start()
  fake.connectAccount(ACCOUNT)
  fake.fund("EUR", 100_000_000_000n)
  fake.fund("JPY", 1_000_000n)
})
afterAll(() => fake.close())

const payoutId = () => `po_${randomUUID().replaceAll("-", "")}`
const send = (fields: { payoutId: string; amount: string; currency?: string; accountId?: string }) =>
  stripe.plugin.sendPayout(stripe.payout({ currency: "EUR", accountId: ACCOUNT, ...fields }))

describe("stripe-checkout payouts (Stripe Connect transfers)", () => {
  it("declares the payouts capability for Stripe connected accounts", () => {
    expect(stripe.plugin.capabilities.payouts).toBe(true)
    expect(stripe.plugin.payoutDestinationTypes).toEqual(["stripe_account"])
  })

  it("transfers the exact amount in Stripe's minor units to the account, under the payout's id as idempotency key: paid, the transfer's id as reference", async () => {
    const id = payoutId()
    const before = fake.available("EUR")
    const report = await run(send({ payoutId: id, amount: "9999999.99" }))
    expect(report).toEqual({ status: "paid", reference: expect.stringMatching(/^tr_/) })
    const [recorded] = fake.transfers().filter(({ transfer }) => transfer["id"] === report.reference)
    expect(recorded!.idempotencyKey).toBe(id)
    expect(recorded!.transfer).toMatchObject({
      object: "transfer", amount: 999_999_999, currency: "eur", destination: ACCOUNT, transfer_group: id,
      metadata: { payout_id: id, merchant_id: "42" }
    })
    expect(before - fake.available("EUR")).toBe(999_999_999n)
    const request = fake.requests().find((each) => each.path === "/v1/transfers" && each.headers["idempotency-key"] === id)
    expect(request?.params["amount"]).toBe("999999999")
  })

  it("sends a zero-decimal currency as it is", async () => {
    const report = await run(send({ payoutId: payoutId(), amount: "1500", currency: "JPY" }))
    expect(fake.transfers().find(({ transfer }) => transfer["id"] === report.reference)!.transfer).toMatchObject({ amount: 1500, currency: "jpy" })
  })

  it("moves the money once however often it is sent, even after Stripe failed once", async () => {
    const id = payoutId()
    const before = fake.available("EUR")
    fake.failNextTransfer(500)
    expect(await failureOf(send({ payoutId: id, amount: "0.30" }))).toMatchObject({ _tag: "PluginCallFailed", call: "sendPayout", reason: "threw" })
    const first = await run(send({ payoutId: id, amount: "0.30" }))
    const again = await run(send({ payoutId: id, amount: "0.30" }))
    expect(again).toEqual(first)
    expect(fake.transfers().filter(({ idempotencyKey }) => idempotencyKey === id)).toHaveLength(1)
    expect(before - fake.available("EUR")).toBe(30n)
  })

  it("answers failed with Stripe's reason when Stripe refuses for good: an unknown account, too little balance", async () => {
    const unknown = await run(send({ payoutId: payoutId(), amount: "1.00", accountId: "acct_notConnected" }))
    expect(unknown).toEqual({ status: "failed", reason: "Stripe refused the transfer: No such destination: 'acct_notConnected'" })
    const tooMuch = await run(send({ payoutId: payoutId(), amount: "0.01", currency: "USD" }))
    expect(tooMuch).toMatchObject({ status: "failed", reason: expect.stringMatching(/^Stripe refused the transfer: You have insufficient available funds/) })
  })

  it("never pays a bank account, and never with a live key in sandbox", async () => {
    const bank = await run(stripe.plugin.sendPayout({
      ...stripe.payout({ payoutId: payoutId(), amount: "1.00", currency: "EUR", accountId: ACCOUNT }),
      destination: { type: "bank_account", accountHolder: "Shop", iban: "DE89370400440532013000", bic: null }
    }))
    expect(bank).toEqual({ status: "failed", reason: "the Stripe plugin pays Stripe connected accounts only" })
    const production = await failureOf(stripe.plugin.sendPayout(stripe.payout({ payoutId: payoutId(), amount: "1.00", currency: "EUR", accountId: ACCOUNT, environment: "production" })))
    expect(production).toMatchObject({ reason: "threw", message: expect.stringMatching(/test-mode key/) })
  })
})
