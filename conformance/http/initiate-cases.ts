import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { CANCEL_URL, createShop, initiate, IPN_URL, paymentBody, rawJson, startSession, SUCCESS_URL, uniqueRef } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

const INFO_KEYS = [
  "allow_payment_methods", "amount", "cancel_redirect", "currency_code", "customer_email", "customer_name", "description",
  "environment", "ipn_url", "is_sandbox", "merchant_id", "merchant_name", "merchant_payment_method_codes",
  "merchant_payment_method_ids", "merchant_payment_methods_restricted", "ref_trx", "success_redirect", "trx_id"
]

/** A transaction id: the environment's prefix and enough random-looking characters to be unguessable. */
const TRX_ID = { sandbox: /^SANDBOX_[0-9A-Z]{20,}$/, production: /^PRODUCTION_[0-9A-Z]{20,}$/ }

/** Spec 2.2 and 4.1: the session body, the echo of every field, and exact amounts. */
export const initiateCases = (target: () => Target) =>
  describe("initiate-payment: the session", () => {
    it("answers 200 with payment_url and info per spec 2.2, echoing every field sent", async () => {
      const shop = await createShop(target())
      const fields = {
        ref_trx: uniqueRef("echo"),
        description: "Order #42: 2 × tea, \"green\" & 'black' — ünïcødé",
        customer_name: "Zoë O'Brien-Łukasiewicz",
        customer_email: "zoe.obrien+orders@shop.example",
        allow_payment_methods: undefined
      }
      const response = await initiate(shop.sandbox, paymentBody("100.25", fields))
      const body = expectOk(response)
      expect(Object.keys(body).sort()).toEqual(["info", "payment_url"])
      expect(Object.keys(body.info).sort()).toEqual(INFO_KEYS)
      expect(body.payment_url).toMatch(/^https?:\/\/[^/]+\/(?:.*\/)?checkout\/[^/?#]+$/)
      expect(body.info).toMatchObject({
        ...fields,
        allow_payment_methods: [],
        success_redirect: SUCCESS_URL,
        cancel_redirect: CANCEL_URL,
        ipn_url: IPN_URL,
        merchant_id: shop.merchant.id,
        merchant_name: shop.merchant.name,
        amount: 100.25,
        currency_code: "USD",
        environment: "sandbox",
        is_sandbox: true
      })
      expect(body.info.trx_id).toMatch(TRX_ID.sandbox)
      expect(typeof body.info.merchant_payment_methods_restricted).toBe("boolean")
      expect(Array.isArray(body.info.merchant_payment_method_ids)).toBe(true)
      expect(Array.isArray(body.info.merchant_payment_method_codes)).toBe(true)
      expect(response.text).toContain('"amount":100.25,')
    })

    it("echoes absent optional text as empty strings", async () => {
      const shop = await createShop(target())
      const info = (await startSession(shop.sandbox, "5")).info
      expect(info).toMatchObject({ description: "", customer_name: "", customer_email: "", allow_payment_methods: [] })
    })

    it("gives every session its own unguessable trx_id and payment_url", async () => {
      const shop = await createShop(target())
      const other = await createShop(target())
      const sessions = [
        await startSession(shop.sandbox),
        await startSession(shop.sandbox),
        await startSession(other.sandbox)
      ]
      const ids = sessions.map((s) => s.info.trx_id as string)
      const urls = sessions.map((s) => s.payment_url as string)
      for (const id of ids) expect(id).toMatch(TRX_ID.sandbox)
      expect(new Set(ids).size).toBe(3)
      expect(new Set(urls).size).toBe(3)
      // Not a counter: consecutive ids share no long common tail.
      expect(ids[0]!.slice(-8)).not.toBe(ids[1]!.slice(-8))
    })

    it("uses the PRODUCTION_ prefix and is_sandbox false in production", async () => {
      const shop = await createShop(target(), { wallets: ["USD:production"], production: true })
      const info = (await startSession(shop.production, "10")).info
      expect(info.trx_id).toMatch(TRX_ID.production)
      expect(info).toMatchObject({ environment: "production", is_sandbox: false })
    })

    it.each([
      ["USD", "100", "100"],
      ["USD", "100.00", "100"],
      ["USD", "12345678.99", "12345678.99"],
      ["USD", "1.10", "1.1"],
      ["USD", "1e3", "1000"],
      ["JPY", "1500", "1500"],
      ["JPY", "1500.0", "1500"],
      ["KWD", "2.125", "2.125"]
    ])("keeps %s %s exact: info.amount is the JSON number %s in the raw text", async (currency, sent, written) => {
      const shop = await createShop(target(), { currencies: [currency] })
      const response = await initiate(shop.sandbox, paymentBody(sent, { currency_code: currency }))
      expectOk(response)
      expect(response.text).toContain(`"amount":${written},`)
      expect(response.text).toContain(`"currency_code":"${currency}"`)
    })

    it("accepts exactly 1.00 and the longest allowed ref_trx, customer_name and customer_email", async () => {
      const shop = await createShop(target())
      const email = `user@${"a".repeat(45)}.${"b".repeat(45)}.com`
      expect(email).toHaveLength(100)
      const fields = { ref_trx: uniqueRef("max").padEnd(60, "x"), customer_name: "é".repeat(100), customer_email: email }
      const response = await initiate(shop.sandbox, paymentBody("1.00", fields))
      expect(expectOk(response).info).toMatchObject({ ...fields, amount: 1 })
      expect(response.text).toContain('"amount":1,')
    })

    it("refuses a body missing every required field with 422 naming each", async () => {
      const shop = await createShop(target())
      const body = expectError(await initiate(shop.sandbox, "{}"), { status: 422, fields: [
        "payment_amount", "currency_code", "ref_trx", "success_redirect", "cancel_redirect", "ipn_url"
      ] })
      expect(body.message.length).toBeGreaterThan(0)
      const blank = rawJson({ currency_code: "USD", ref_trx: "", success_redirect: SUCCESS_URL, cancel_redirect: CANCEL_URL, ipn_url: IPN_URL }, { payment_amount: "10" })
      expectError(await initiate(shop.sandbox, blank), { status: 422, fields: ["ref_trx"] })
    })
  })
