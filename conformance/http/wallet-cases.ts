import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { callerFor, createMerchant, issueCredentials, uniqueName } from "./fixtures.js"
import { adminRequest, type HttpResult, rawRequest, type Target } from "./signing.js"

const MISSING_WALLET = { status: 404, errorCode: "NOT_FOUND", message: "Wallet not found.", errors: {} }

const newWallet = async (target: Target, currency: string, environment = "sandbox") => {
  const merchant = await createMerchant(target)
  const response = await adminRequest(target, "POST", `/merchants/${merchant.id}/wallets`, { currency_code: currency, environment })
  return { merchant, wallet: expectOk(response, 201), response }
}

/** An adjustment sent with the amount as exact JSON text. */
const adjust = (target: Target, walletId: number, amountJson: string, reason = "conformance") =>
  adminRequest(target, "POST", `/wallets/${walletId}/adjustments`, `{"amount":${amountJson},"reason":${JSON.stringify(reason)}}`)

const balanceOf = async (target: Target, merchantId: number, walletId: number): Promise<string> => {
  const response = await adminRequest(target, "GET", `/merchants/${merchantId}/wallets`)
  expectOk(response)
  // The balance as written in the response text, not as a double.
  const match = new RegExp(`"id":${walletId},[^}]*?"balance":(-?[0-9.]+)`).exec(response.text)
  if (match === null) throw new Error(`wallet ${walletId} not in ${response.text}`)
  return match[1]!
}

const expectAmountsInText = (response: HttpResult, amount: string, balance: string) => {
  expect(response.text).toContain(`"amount":${amount},`)
  expect(response.text).toContain(`"balance":${balance},`)
}

/** Admin wallets and ledger adjustments, with exact money in and out. */
export const walletCases = (target: () => Target) =>
  describe("admin API: wallets and adjustments", () => {
    it("creates a wallet (201) with a zero balance, active, and lists it", async () => {
      const { merchant, wallet, response } = await newWallet(target(), "USD")
      expect(Object.keys(wallet).sort()).toEqual(["active", "balance", "currency_code", "environment", "id", "merchant_id"])
      expect(wallet).toMatchObject({ merchant_id: merchant.id, currency_code: "USD", environment: "sandbox", balance: 0, active: true })
      expect(response.text).toContain('"balance":0,')
      const production = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "production" }), 201)
      expect(production.id).not.toBe(wallet.id)
      const list = expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}/wallets`))
      expect(Object.keys(list)).toEqual(["data"])
      expect(list.data).toHaveLength(2)
      expect(list.data).toEqual(expect.arrayContaining([wallet, production]))
    })

    it("refuses a second wallet for the same currency and environment with 409 WALLET_EXISTS", async () => {
      const { merchant } = await newWallet(target(), "EUR")
      const again = await adminRequest(target(), "POST", `/merchants/${merchant.id}/wallets`, { currency_code: "EUR", environment: "sandbox" })
      expectError(again, { status: 409, errorCode: "WALLET_EXISTS" })
      expect(expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}/wallets`)).data).toHaveLength(1)
    })

    it("refuses an unknown currency with 422 INVALID_CURRENCY and a bad environment with 422", async () => {
      const merchant = await createMerchant(target())
      const path = `/merchants/${merchant.id}/wallets`
      expectError(await adminRequest(target(), "POST", path, { currency_code: "XYZ", environment: "sandbox" }), { status: 422, errorCode: "INVALID_CURRENCY", fields: ["currency_code"] })
      expectError(await adminRequest(target(), "POST", path, { currency_code: "USD", environment: "live" }), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["environment"] })
      expectError(await adminRequest(target(), "POST", path, {}), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["currency_code", "environment"] })
    })

    it("deactivates and reactivates a wallet with PATCH; 404 for a wallet that does not exist", async () => {
      const { wallet } = await newWallet(target(), "GBP")
      expect(expectOk(await adminRequest(target(), "PATCH", `/wallets/${wallet.id}`, { active: false }))).toEqual({ ...wallet, active: false })
      expect(expectOk(await adminRequest(target(), "PATCH", `/wallets/${wallet.id}`, { active: true }))).toEqual(wallet)
      expectError(await adminRequest(target(), "PATCH", `/wallets/${wallet.id}`, { active: "no" }), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["active"] })
      for (const id of ["987654321", "0", "abc"]) {
        expectError(await adminRequest(target(), "PATCH", `/wallets/${id}`, { active: false }), MISSING_WALLET)
        expectError(await adminRequest(target(), "POST", `/wallets/${id}/adjustments`, { amount: 1, reason: "x" }), MISSING_WALLET)
      }
    })

    it("records an adjustment (201) and reads 12345678.12 USD back exactly in the raw response", async () => {
      const { merchant, wallet } = await newWallet(target(), "USD")
      const reason = uniqueName("opening balance")
      const response = await adjust(target(), wallet.id, "12345678.12", reason)
      const entry = expectOk(response, 201)
      expect(Object.keys(entry).sort()).toEqual(["amount", "balance", "created_at", "currency_code", "id", "reason", "wallet_id"])
      expect(entry).toMatchObject({ wallet_id: wallet.id, currency_code: "USD", reason })
      expect(entry.created_at).toMatch(ISO_MICROS)
      expectAmountsInText(response, "12345678.12", "12345678.12")
      expect(await balanceOf(target(), merchant.id, wallet.id)).toBe("12345678.12")
      expectAmountsInText(await adjust(target(), wallet.id, "-0.12"), "-0.12", "12345678")
      expectAmountsInText(await adjust(target(), wallet.id, '"0.50"'), "0.5", "12345678.5")
    })

    it("adds exactly: 0.1 + 0.2 is 0.3, not 0.30000000000000004", async () => {
      const { merchant, wallet } = await newWallet(target(), "USD")
      expectAmountsInText(await adjust(target(), wallet.id, "0.1"), "0.1", "0.1")
      expectAmountsInText(await adjust(target(), wallet.id, "0.2"), "0.2", "0.3")
      expect(await balanceOf(target(), merchant.id, wallet.id)).toBe("0.3")
    })

    it("refuses a debit below zero with 422 INSUFFICIENT_BALANCE and leaves the balance as it was", async () => {
      const { merchant, wallet } = await newWallet(target(), "USD")
      expectError(await adjust(target(), wallet.id, "-0.01"), { status: 422, errorCode: "INSUFFICIENT_BALANCE" })
      await adjust(target(), wallet.id, "10")
      expectError(await adjust(target(), wallet.id, "-10.01"), { status: 422, errorCode: "INSUFFICIENT_BALANCE" })
      expect(await balanceOf(target(), merchant.id, wallet.id)).toBe("10")
      expectAmountsInText(await adjust(target(), wallet.id, "-10"), "-10", "0")
    })

    it.each([
      ["USD", "1.234"],
      ["USD", "0.001"],
      ["JPY", "1.5"],
      ["KWD", "1.2345"]
    ])("refuses more decimals than %s allows (%s) with 422 INVALID_AMOUNT on amount", async (currency, amount) => {
      const { merchant, wallet } = await newWallet(target(), currency)
      expectError(await adjust(target(), wallet.id, amount), { status: 422, errorCode: "INVALID_AMOUNT", fields: ["amount"] })
      expect(await balanceOf(target(), merchant.id, wallet.id)).toBe("0")
    })

    it("accepts each currency's own minor unit: JPY whole units, KWD three decimals, trailing zeros", async () => {
      expectAmountsInText(await adjust(target(), (await newWallet(target(), "JPY")).wallet.id, "1500"), "1500", "1500")
      expectAmountsInText(await adjust(target(), (await newWallet(target(), "KWD")).wallet.id, "1.234"), "1.234", "1.234")
      expectAmountsInText(await adjust(target(), (await newWallet(target(), "USD")).wallet.id, "12.50"), "12.5", "12.5")
    })

    it.each([
      ["zero", "0"],
      ["a boolean", "true"],
      ["an object", '{"value":1}'],
      ["a word", '"ten"'],
      ["an exponent in a string", '"1e2"'],
      ["too large", "10000000000"]
    ])("refuses an amount that is %s with 422 naming amount", async (_, amount) => {
      const { wallet } = await newWallet(target(), "USD")
      const body = expectError(await adjust(target(), wallet.id, amount), { status: 422, errorCode: "INVALID_AMOUNT", fields: ["amount"] })
      expect(body.message).toBe("The given data was invalid.")
    })

    it("requires a reason", async () => {
      const { wallet } = await newWallet(target(), "USD")
      expectError(await adminRequest(target(), "POST", `/wallets/${wallet.id}/adjustments`, { amount: 1 }), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["reason"] })
    })
  

    it("answers GET /api/v1/balances with the caller's wallets in its environment only, by currency, amounts exact", async () => {
      // With no payment, reserve or payout, all of a balance is available.
      const split = (available: number) => ({ available, pending: 0, reserved: 0, in_payouts: 0, next_available_at: null })
      const merchant = await createMerchant(target(), { status: "approved" })
      const walletIn = async (currency: string, environment: string) =>
        expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/wallets`, { currency_code: currency, environment }), 201)
      const usd = await walletIn("USD", "sandbox")
      const eur = await walletIn("EUR", "sandbox")
      const production = await walletIn("USD", "production")
      expectOk(await adjust(target(), usd.id, "9999999999.99"), 201)
      expectOk(await adjust(target(), production.id, "7.00"), 201)
      expectOk(await adminRequest(target(), "PATCH", `/wallets/${eur.id}`, { active: false }))
      const sandbox = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "sandbox"))
      const response = await sandbox.call({ path: "/api/v1/balances" })
      expect(expectOk(response)).toEqual({
        data: [
          { currency_code: "EUR", environment: "sandbox", balance: 0, active: false, ...split(0) },
          { currency_code: "USD", environment: "sandbox", balance: 9999999999.99, active: true, ...split(9999999999.99) }
        ]
      })
      expect(response.text).toContain('"balance":9999999999.99,')
      const live = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "production"))
      expect(expectOk(await live.call({ path: "/api/v1/balances" }))).toEqual({
        // An operator's adjustment is no payment: nothing of it waits for production's delay.
        data: [{ currency_code: "USD", environment: "production", balance: 7, active: true, ...split(7) }]
      })
    })

    it("refuses GET /api/v1/balances unsigned with 401", async () => {
      const response = await rawRequest(target(), { method: "GET", path: "/api/v1/balances", headers: { accept: "application/json" } })
      expectError(response, { status: 401, errorCode: "INVALID_CREDENTIALS", message: "Invalid API credentials.", fields: ["X-Environment"] })
    })
  })
