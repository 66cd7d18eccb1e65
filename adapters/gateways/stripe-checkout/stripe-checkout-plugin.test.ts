import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeFakeStripe } from "./testing/fake-stripe.js"
import { failureOf, makeHarness, newTrxId, type Payment, run } from "./testing/stripe-plugin-harness.js"

const fake = makeFakeStripe()
const stripe = makeHarness(fake)
const LIVE_KEY = "sk_live_liveKeyNeverShown1234"

beforeAll(() => fake.start())
afterAll(() => fake.close())

const lastSessionRequest = () => fake.requests().filter((request) => request.path === "/v1/checkout/sessions").at(-1)!
const payment = (amount = "12.50", currency = "USD"): Payment => ({ trxId: newTrxId(), amount, currency })

describe("stripe-checkout beginCheckout", () => {
  it("creates a one-item payment session in Stripe's units and sends the customer to its page", async () => {
    const usd = payment("12.50")
    const start = await run(stripe.plugin.beginCheckout(stripe.checkout(usd, { description: "Blue mug" })))
    if (!("redirect" in start)) throw new Error("expected a redirect")
    expect(start.redirect.startsWith(`${fake.apiBase}/pay/cs_test_`)).toBe(true)
    expect((await fetch(start.redirect)).status).toBe(200)
    const session = fake.session(start.gatewayReference!)
    expect(session).toMatchObject({
      object: "checkout.session", mode: "payment", status: "open", payment_status: "unpaid", amount_total: 1250, currency: "usd",
      client_reference_id: usd.trxId, metadata: { trx_id: usd.trxId },
      success_url: `https://kit.example/checkout/return?trx_id=${usd.trxId}&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `https://kit.example/checkout/cancel?trx_id=${usd.trxId}`
    })
    const sent = lastSessionRequest()
    expect(sent.params).toMatchObject({
      "line_items[0][price_data][unit_amount]": "1250",
      "line_items[0][price_data][currency]": "usd",
      "line_items[0][price_data][product_data][name]": "Blue mug",
      "line_items[0][quantity]": "1",
      "payment_intent_data[metadata][trx_id]": usd.trxId
    })
  })

  it("sends the plugin call span's traceparent to Stripe when the host traces, and none otherwise", async () => {
    await run(Effect.withSpan(stripe.plugin.beginCheckout(stripe.checkout(payment())), "caller"))
    const [, traceId] = /^00-([0-9a-f]{32})-[0-9a-f]{16}-01$/.exec(lastSessionRequest().headers["traceparent"] ?? "") ?? []
    expect(traceId).toMatch(/^[0-9a-f]{32}$/)
    await run(Effect.withTracerEnabled(stripe.plugin.beginCheckout(stripe.checkout(payment())), false))
    expect(lastSessionRequest().headers["traceparent"]).toBeUndefined()
  })

  it("uses each currency's Stripe exponent: JPY has none, KWD has three", async () => {
    for (const [amount, currency, minor] of [["1500", "JPY", 1500], ["1.234", "KWD", 1234], ["0.50", "EUR", 50]] as const) {
      const id = await stripe.begin(payment(amount, currency))
      expect(fake.session(id)).toMatchObject({ amount_total: minor, currency: currency.toLowerCase() })
    }
  })

  it("names the product after the merchant when there is no description, and offers the configured methods", async () => {
    const plugin = makeHarness(fake).plugin
    const p = payment()
    const config = stripe.parsed({ payment_method_types: ["card", "sepa_debit"] })
    const start = await run(plugin.beginCheckout(stripe.checkout(p, { config })))
    const session = fake.session(start.gatewayReference!)
    expect(session["payment_method_types"]).toEqual(["card", "sepa_debit"])
    expect(lastSessionRequest().params["line_items[0][price_data][product_data][name]"]).toBe("Corner Shop")
  })

  it("puts the session placeholder in the success URL whether it has a query or a fragment", async () => {
    for (const [returnUrl, expected] of [
      ["https://kit.example/r", "https://kit.example/r?session_id={CHECKOUT_SESSION_ID}"],
      ["https://kit.example/r?", "https://kit.example/r?session_id={CHECKOUT_SESSION_ID}"],
      ["https://kit.example/r?a=1#top", "https://kit.example/r?a=1&session_id={CHECKOUT_SESSION_ID}#top"]
    ] as const) {
      const start = await run(stripe.plugin.beginCheckout(stripe.checkout(payment(), { returnUrl })))
      expect(fake.session(start.gatewayReference!)["success_url"]).toBe(expected)
    }
  })

  it("refuses an amount with more digits than Stripe takes for the currency, before calling Stripe", async () => {
    const before = fake.sessions().length
    const failure = await failureOf(stripe.plugin.beginCheckout(stripe.checkout(payment("12.345"))))
    expect(failure).toMatchObject({ _tag: "PluginCallFailed", reason: "threw" })
    expect(failure.message).toMatch(/USD amounts have at most 2 decimal places/)
    expect(fake.sessions()).toHaveLength(before)
  })

  it("refuses a test key for a production payment and a live key for a sandbox one, without a request", async () => {
    const before = fake.requests().length
    const production = { ...payment(), environment: "production" as const }
    const testKeyInProduction = await failureOf(stripe.plugin.beginCheckout(stripe.checkout(production)))
    expect(testKeyInProduction.message).toMatch(/test-mode key; production payments need a live key/)
    const liveKeyInSandbox = await failureOf(stripe.plugin.beginCheckout(stripe.checkout(payment(), { config: stripe.parsed({ secret_key: LIVE_KEY }) })))
    expect(liveKeyInSandbox.message).toMatch(/live-mode key; sandbox payments need a test-mode key/)
    expect(liveKeyInSandbox.message).not.toContain("liveKeyNeverShown")
    expect(fake.requests()).toHaveLength(before)
  })

  it("reports a refused key without the key, not even the part Stripe echoes", async () => {
    const failure = await failureOf(stripe.plugin.beginCheckout(stripe.checkout(payment(), { config: stripe.parsed({ secret_key: "sk_test_wrongKeyWXYZ" }) })))
    expect(failure).toMatchObject({ reason: "threw", message: "Stripe refused this gateway's secret_key (authentication failed)" })
    expect(fake.requests().at(-1)!.path).toBe("/v1/checkout/sessions")
  })

  it("gives up with timed_out when Stripe does not answer", async () => {
    fake.hang(true)
    try {
      const failure = await failureOf(stripe.plugin.beginCheckout(stripe.checkout(payment())))
      expect(failure).toMatchObject({ _tag: "PluginCallFailed", call: "beginCheckout", reason: "timed_out" })
    } finally {
      fake.hang(false)
    }
  })
})

describe("stripe-checkout handleReturn", () => {
  const returnOf = (p: Payment, fields: Record<string, string>, reference: string | null = null) =>
    run(stripe.plugin.handleReturn(stripe.returned(p, fields, reference)))

  it("reads the session from Stripe: paid, pending while unpaid or open, cancelled once expired", async () => {
    const paid = payment()
    const paidId = await stripe.begin(paid)
    fake.pay(paidId)
    expect(await returnOf(paid, { session_id: paidId })).toEqual({ outcome: "paid", verified: true, gatewayReference: paidId })

    const later = payment()
    const laterId = await stripe.begin(later)
    expect(await returnOf(later, { session_id: laterId })).toEqual({ outcome: "pending", verified: true, gatewayReference: laterId })
    fake.payLater(laterId)
    expect(await returnOf(later, { session_id: laterId })).toEqual({ outcome: "pending", verified: true, gatewayReference: laterId })

    const expired = payment("1500", "JPY")
    const expiredId = await stripe.begin(expired)
    fake.expire(expiredId)
    expect(await returnOf(expired, {}, expiredId)).toEqual({ outcome: "cancelled", verified: true, gatewayReference: expiredId })
  })

  it("trusts no session that is not this payment's, for this amount and currency", async () => {
    const mine = payment()
    const mineId = await stripe.begin(mine)
    fake.pay(mineId)
    const unverified = { outcome: "pending", verified: false }
    expect(await returnOf(payment(), { session_id: mineId })).toEqual(unverified)
    expect(await returnOf({ ...mine, amount: "13.00" }, { session_id: mineId })).toEqual(unverified)
    expect(await returnOf({ ...mine, currency: "EUR" }, { session_id: mineId })).toEqual(unverified)
    expect(await returnOf(mine, { session_id: "cs_test_doesNotExist" })).toEqual(unverified)
    const before = fake.requests().length
    expect(await returnOf(mine, { session_id: "../v1/refunds" })).toEqual(unverified)
    expect(await returnOf(mine, {})).toEqual(unverified)
    expect(fake.requests()).toHaveLength(before)
  })
})

describe("stripe-checkout syncStatus", () => {
  const syncOf = (p: Payment, reference: string | null) => run(stripe.plugin.syncStatus(stripe.sync(p, reference)))

  it("reports the session's outcome with the amount and currency Stripe holds", async () => {
    const p = payment("1.234", "KWD")
    const id = await stripe.begin(p)
    expect(await syncOf(p, id)).toEqual({ outcome: "pending", amount: "1.234", currency: "KWD", gatewayReference: id })
    fake.pay(id)
    expect(await syncOf(p, id)).toEqual({ outcome: "paid", amount: "1.234", currency: "KWD", gatewayReference: id })
    const gone = payment()
    const goneId = await stripe.begin(gone)
    fake.expire(goneId)
    expect(await syncOf(gone, goneId)).toMatchObject({ outcome: "cancelled", amount: "12.50", currency: "USD" })
  })

  it("says pending when there is nothing to ask about or the session is not this payment's", async () => {
    expect(await syncOf(payment(), null)).toEqual({ outcome: "pending" })
    expect(await syncOf(payment(), "cs_test_doesNotExist")).toEqual({ outcome: "pending" })
    const other = payment()
    const otherId = await stripe.begin(other)
    fake.pay(otherId)
    expect(await syncOf(payment(), otherId)).toEqual({ outcome: "pending" })
    expect(await syncOf({ ...other, amount: "99.00" }, otherId)).toEqual({ outcome: "pending", amount: "12.50", currency: "USD", gatewayReference: otherId })
  })
})

describe("stripe-checkout's requests", () => {
  it("carry no telemetry about earlier requests", () => {
    expect(fake.requests().length).toBeGreaterThan(10)
    expect(fake.requests().filter((request) => request.headers["x-stripe-client-telemetry"] !== undefined)).toEqual([])
  })
})
