import { describe, expect, it } from "vitest"
import { merchantCaller } from "./fixtures.js"
import { createShop, initiate, paymentBody, simulate, startSession } from "./payment-fixtures.js"
import { paidPayment, refund } from "./refund-fixtures.js"
import { adminRequest, type HttpResult, rawRequest, type Target } from "./signing.js"

/** Texts the contract fixes word for word (spec 4.1, 4.3, 7.4; issue 35 for payouts): they keep its spelling. */
export const VERBATIM: ReadonlySet<string> = new Set([
  "Only completed payments can be refunded",
  "Refund amount exceeds the refundable balance",
  "Payout amount exceeds the available balance",
  "This payment has already been fully refunded",
  "Merchant wallet balance is insufficient to process this refund",
  "Merchant Pending Approval",
  "Invalid API credentials.",
  "Currency is not enabled for this merchant.",
  "Receiver wallet for this currency is not available."
])

/** Every message of an error body, and of each of its `errors`. */
const messagesOf = (response: HttpResult): Array<string> => {
  expect(response.status, response.text).toBeGreaterThanOrEqual(400)
  expect(response.status, response.text).toBeLessThan(500)
  const body = response.json()
  return [body.message, ...Object.values(body.errors as Record<string, Array<string>>).flat()]
}

/** One voice (docs/decisions.md): every message a sentence with a capital and a full stop. */
export const voiceCases = (target: () => Target) =>
  describe("one voice: every error message is a sentence", () => {
    it("holds for a walk through bad requests on every kind of endpoint", async () => {
      const shop = await createShop(target())
      const pending = (await startSession(shop.sandbox, "10")).info.trx_id as string
      const paid = await paidPayment(shop, "10")
      const stranger = await merchantCaller(target())
      const responses: Array<HttpResult> = [
        await adminRequest(target(), "POST", "/merchants", "{\"name\":"),
        await adminRequest(target(), "POST", "/merchants", "[]"),
        await adminRequest(target(), "POST", "/merchants", { name: "", status: "nope", fee_percent: "-1", fee_fixed: "x" }),
        await adminRequest(target(), "POST", "/merchants", { name: "voice", fee_percent: 101 }),
        await adminRequest(target(), "POST", "/merchants", { name: "voice", fee_percent: "1.000000001" }),
        await adminRequest(target(), "GET", "/merchants/999999999"),
        await adminRequest(target(), "POST", "/gateways", { plugin: "nope", name: "x", currency_code: "ZZZ", method: "-", type: "automatic" }),
        await adminRequest(target(), "POST", "/gateways", { plugin: "sandbox", name: "x", currency_code: "USD", method: "voice", config: { label: 5, extra: 1 } }),
        await adminRequest(target(), "POST", `/wallets/${shop.wallet("USD").id}/adjustments`, { amount: "1.001", reason: "voice" }),
        await adminRequest(target(), "POST", `/wallets/${shop.wallet("USD").id}/adjustments`, { amount: "-1000000", reason: "voice" }),
        await adminRequest({ ...target(), adminToken: "wrong" }, "GET", "/merchants"),
        await initiate(shop.sandbox, paymentBody("-5", { customer_email: "x", ref_trx: " ", success_redirect: "/", ipn_url: "http://127.0.0.1/" })),
        await initiate(shop.sandbox, paymentBody("10.001")),
        await initiate(shop.sandbox, paymentBody("\"ten\"")),
        await initiate(shop.sandbox, paymentBody("1e40")),
        await initiate(shop.sandbox, paymentBody("10", { currency_code: "usd" })),
        await initiate(shop.sandbox, paymentBody("10", { currency_code: "EUR" })),
        await simulate(shop.sandbox, pending, "paid"),
        await simulate(shop.sandbox, paid, "failed"),
        await refund(shop.sandbox, { trx_id: pending }, "1"),
        await refund(shop.sandbox, { trx_id: paid }, "0"),
        await refund(shop.sandbox, { trx_id: paid }, "-1"),
        await refund(shop.sandbox, { trx_id: paid }, "10.01"),
        await refund(shop.sandbox, { trx_id: "SANDBOX_NOPE" }, "1"),
        await refund(shop.sandbox, { trx_id: paid, ref_refund: "a\u202Eb" }),
        await stranger.call({ path: "/api/v1/verify-payment/SANDBOX_NOPE" }),
        await shop.sandbox.call({ headers: { "X-Timestamp": "soon" } }),
        await shop.sandbox.call({ environment: undefined }),
        await rawRequest(target(), { method: "GET", path: "/api/v1/nowhere" })
      ]
      const messages = responses.flatMap(messagesOf)
      const offending = messages.filter((message) => !VERBATIM.has(message) && !/^\p{Lu}[\s\S]*[.?!]$/u.test(message))
      expect(offending, JSON.stringify(messages, null, 1)).toEqual([])
    })
  })
