import { describe, expect, it } from "vitest"
import { expectError } from "./assertions.js"
import { createShop } from "./payment-fixtures.js"
import { adjustWallet, EXCEEDS, paidPayment, refund, refused, walletBalance, WALLET_SHORT } from "./refund-fixtures.js"
import type { Target } from "./signing.js"

/**
 * The two amount refusals say what was available (docs/decisions.md: `errors.remaining_refund` and
 * `errors.wallet_balance`), in the currency's own digits, so a merchant can retry with a fitting amount.
 */
export const refundAmountCases = (target: () => Target) =>
  describe("refund-payment: refusals name the amount available", () => {
    it.each([
      ["USD", "100", "60", "40.01", "40.00 USD"],
      ["JPY", "1500", "500", "1001", "1000 JPY"],
      ["KWD", "1.5", "0.25", "1.251", "1.250 KWD"]
    ])(`"${EXCEEDS}" carries errors.remaining_refund (%s)`, async (currency, paid, first, asked, remaining) => {
      const shop = await createShop(target(), { currencies: [currency], merchant: { fee_percent: 0, fee_fixed: 0 } })
      const trxId = await paidPayment(shop, paid, currency)
      expect((await refund(shop.sandbox, { trx_id: trxId }, first)).status).toBe(200)
      expectError(await refund(shop.sandbox, { trx_id: trxId }, asked), {
        ...refused(EXCEEDS),
        errors: { remaining_refund: [`The refundable balance is ${remaining}.`] }
      })
    })

    it(`"${WALLET_SHORT}" carries errors.wallet_balance, the wallet's balance as it stands`, async () => {
      const shop = await createShop(target(), { merchant: { fee_percent: 0, fee_fixed: 0 } })
      const trxId = await paidPayment(shop, "100")
      await adjustWallet(target(), shop.wallet("USD").id, "-87.66")
      expect(await walletBalance(target(), shop)).toBe("12.34")
      for (const amount of [undefined, "12.35"]) {
        expectError(await refund(shop.sandbox, { trx_id: trxId }, amount), {
          ...refused(WALLET_SHORT),
          errors: { wallet_balance: ["The wallet's available balance is 12.34 USD."] }
        })
      }
    })
  })
