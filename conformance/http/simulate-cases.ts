import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { balanceText, createShop, simulate, startSession, statusOf, verify } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

const INVALID_STATE = { status: 409, errorCode: "INVALID_STATE" } as const
const NOT_FOUND = { status: 404, errorCode: "NOT_FOUND" } as const
const FEES = { fee_percent: 2.9, fee_fixed: 0.3 }

/** The sandbox's simulated gateway outcome: the verify body, exact fee and net, money moved once. */
export const simulateCases = (target: () => Target) =>
  describe("sandbox simulate", () => {
    it("success answers the verify body with fee 3.2 and net 96.8 for 100 USD at 2.9 % + 0.30, and credits exactly the net", async () => {
      const shop = await createShop(target(), { merchant: FEES })
      const wallet = shop.wallet("USD")
      const trxId = (await startSession(shop.sandbox, "100")).info.trx_id as string
      expect(await balanceText(target(), shop.merchant.id, wallet.id)).toBe("0")
      const response = await simulate(shop.sandbox, trxId, "success")
      const body = expectOk(response)
      expect(body).toMatchObject({ status: "success", trx_id: trxId, amount: 100, fee: 3.2, net_amount: 96.8, currency: "USD" })
      expect(body.updated_at).toMatch(ISO_MICROS)
      expect(response.text).toContain('"amount":100,')
      expect(response.text).toContain('"fee":3.2,')
      expect(response.text).toContain('"net_amount":96.8,')
      const verified = await verify(shop.sandbox, trxId)
      expect(expectOk(verified)).toEqual(body)
      expect(verified.text).toBe(response.text)
      expect(await balanceText(target(), shop.merchant.id, wallet.id)).toBe("96.8")
    })

    it.each([
      ["USD", "25", "1.03", "23.97"],
      ["USD", "1", "0.33", "0.67"],
      ["JPY", "1000", "29", "971"],
      ["KWD", "10", "0.59", "9.41"]
    ])("prices %s %s at 2.9 %% + 0.30 as fee %s, net %s, rounded once to the currency's minor unit", async (currency, amount, fee, net) => {
      const shop = await createShop(target(), { currencies: [currency], merchant: FEES })
      const trxId = (await startSession(shop.sandbox, amount, { currency_code: currency })).info.trx_id as string
      const response = await simulate(shop.sandbox, trxId, "success")
      expectOk(response)
      expect(response.text).toContain(`"fee":${fee},`)
      expect(response.text).toContain(`"net_amount":${net},`)
      expect(await balanceText(target(), shop.merchant.id, shop.wallet(currency).id)).toBe(net)
    })

    it("adds each payment's net to the same wallet exactly", async () => {
      const shop = await createShop(target(), { merchant: FEES })
      for (const amount of ["100", "100", "0.1e2"]) {
        expectOk(await simulate(shop.sandbox, (await startSession(shop.sandbox, amount)).info.trx_id, "success"))
      }
      // 96.8 + 96.8 + (10 - 0.59)
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD").id)).toBe("203.01")
    })

    it.each(["failed", "cancelled"])("%s ends the payment as failed and moves no money", async (outcome) => {
      const shop = await createShop(target(), { merchant: FEES })
      const trxId = (await startSession(shop.sandbox, "100")).info.trx_id as string
      const body = expectOk(await simulate(shop.sandbox, trxId, outcome))
      expect(body).toMatchObject({ status: "failed", trx_id: trxId, amount: 100, refunded_amount: 0, fully_refunded: false })
      expect(await statusOf(shop.sandbox, trxId)).toBe("failed")
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD").id)).toBe("0")
    })

    it("refuses a second outcome with 409 INVALID_STATE and keeps the first, money moved once", async () => {
      const shop = await createShop(target(), { merchant: FEES })
      const paid = (await startSession(shop.sandbox, "100")).info.trx_id as string
      expectOk(await simulate(shop.sandbox, paid, "success"))
      for (const outcome of ["failed", "cancelled", "success"]) expectError(await simulate(shop.sandbox, paid, outcome), INVALID_STATE)
      expect(await statusOf(shop.sandbox, paid)).toBe("success")
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD").id)).toBe("96.8")

      const failed = (await startSession(shop.sandbox, "100")).info.trx_id as string
      expectOk(await simulate(shop.sandbox, failed, "failed"))
      expectError(await simulate(shop.sandbox, failed, "success"), INVALID_STATE)
      expect(await statusOf(shop.sandbox, failed)).toBe("failed")
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD").id)).toBe("96.8")
    })

    it("lets exactly one of several concurrent outcomes win; the wallet is credited once", async () => {
      const shop = await createShop(target(), { merchant: FEES })
      const trxId = (await startSession(shop.sandbox, "100")).info.trx_id as string
      const responses = await Promise.all(["success", "success", "failed", "success", "cancelled", "success"].map((outcome) => simulate(shop.sandbox, trxId, outcome)))
      const won = responses.filter((response) => response.status === 200)
      expect(won, responses.map((r) => `${r.status} ${r.text}`).join("\n")).toHaveLength(1)
      for (const response of responses) if (response.status !== 200) expectError(response, INVALID_STATE)
      const final = won[0]!.json().status as string
      expect(await statusOf(shop.sandbox, trxId)).toBe(final)
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD").id)).toBe(final === "success" ? "96.8" : "0")
    })

    it.each([["paid"], ["SUCCESS"], [""], [1], [null], [["success"]]])("refuses outcome %j with 422 naming outcome; the payment stays pending", async (outcome) => {
      const shop = await createShop(target())
      const trxId = (await startSession(shop.sandbox, "10")).info.trx_id as string
      expectError(await simulate(shop.sandbox, trxId, outcome), { status: 422, fields: ["outcome"] })
      expect(await statusOf(shop.sandbox, trxId)).toBe("pending")
    })

    it("names the valid outcomes when refusing one", async () => {
      const shop = await createShop(target())
      const trxId = (await startSession(shop.sandbox, "10")).info.trx_id as string
      expectError(await simulate(shop.sandbox, trxId, "paid"), {
        status: 422,
        errors: { outcome: ["The selected outcome is invalid; it must be one of: success, failed, cancelled."] }
      })
    })

    it("answers 404 in production, for another merchant's payment and for an unknown one", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const other = await createShop(target())
      const production = (await startSession(shop.production, "10")).info.trx_id as string
      const sandbox = (await startSession(shop.sandbox, "10")).info.trx_id as string
      expectError(await simulate(shop.production, production, "success"), NOT_FOUND)
      expectError(await simulate(shop.production, sandbox, "success"), NOT_FOUND)
      expectError(await simulate(other.sandbox, sandbox, "success"), NOT_FOUND)
      expectError(await simulate(shop.sandbox, `SANDBOX_${"0".repeat(26)}`, "success"), NOT_FOUND)
      expect(await statusOf(shop.production, production)).toBe("pending")
      expect(await statusOf(shop.sandbox, sandbox)).toBe("pending")
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD", "production").id)).toBe("0")
    })
  })
