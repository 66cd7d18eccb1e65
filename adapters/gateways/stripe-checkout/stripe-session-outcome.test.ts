import type Stripe from "stripe"
import { describe, expect, it } from "vitest"
import { chargedBy, reportOfSession } from "./stripe-session-outcome.js"

/** Only the fields the mapping reads; the rest of a session does not matter here. */
const session = (fields: Partial<Stripe.Checkout.Session>): Stripe.Checkout.Session => ({
  id: "cs_test_a1abc",
  object: "checkout.session",
  client_reference_id: "TRX_1",
  amount_total: 1250,
  currency: "usd",
  status: "open",
  payment_status: "unpaid",
  ...fields
}) as Stripe.Checkout.Session

const expected = { trxId: "TRX_1", amount: "12.50", currency: "USD" }
const UNVERIFIED = { outcome: "pending", verified: false }

describe("reportOfSession", () => {
  it("maps status and payment status the way Checkout documents them", () => {
    const verified = (outcome: string) => ({ outcome, verified: true, gatewayReference: "cs_test_a1abc" })
    expect(reportOfSession(session({ status: "complete", payment_status: "paid" }), expected)).toEqual(verified("paid"))
    expect(reportOfSession(session({ status: "complete", payment_status: "unpaid" }), expected)).toEqual(verified("pending"))
    expect(reportOfSession(session({ status: "open" }), expected)).toEqual(verified("pending"))
    expect(reportOfSession(session({ status: "expired" }), expected)).toEqual(verified("cancelled"))
    expect(reportOfSession(session({ status: null }), expected)).toEqual(UNVERIFIED)
  })

  it("counts no_payment_required as paid only for a free payment", () => {
    const free = session({ status: "complete", payment_status: "no_payment_required", amount_total: 0 })
    expect(reportOfSession(free, { ...expected, amount: "0.00" })).toMatchObject({ outcome: "paid", verified: true })
    const discounted = session({ status: "complete", payment_status: "no_payment_required", amount_total: 1250 })
    expect(reportOfSession(discounted, expected)).toEqual(UNVERIFIED)
  })

  it("verifies nothing for another payment, amount or currency, or a session without a total", () => {
    const paid = { status: "complete", payment_status: "paid" } as const
    expect(reportOfSession(session({ ...paid, client_reference_id: "TRX_2" }), expected)).toEqual(UNVERIFIED)
    expect(reportOfSession(session({ ...paid, client_reference_id: null }), expected)).toEqual(UNVERIFIED)
    expect(reportOfSession(session({ ...paid, amount_total: 1249 }), expected)).toEqual(UNVERIFIED)
    expect(reportOfSession(session({ ...paid, currency: "eur" }), expected)).toEqual(UNVERIFIED)
    expect(reportOfSession(session({ ...paid, amount_total: null }), expected)).toEqual(UNVERIFIED)
    expect(reportOfSession(session({ ...paid, currency: "jpy", amount_total: 1250 }), { ...expected, amount: "1250", currency: "JPY" })).toMatchObject({ outcome: "paid" })
  })
})

describe("chargedBy", () => {
  it("gives the session's amount in the kit's decimal form and its currency in upper case", () => {
    expect(chargedBy(session({ amount_total: 1234, currency: "kwd" }))).toEqual({ amount: "1.234", currency: "KWD" })
    expect(chargedBy(session({ amount_total: null }))).toEqual({ currency: "USD" })
    expect(chargedBy(session({ currency: null }))).toEqual({})
  })
})
