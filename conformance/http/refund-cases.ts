import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { createShop, IPN_URL } from "./payment-fixtures.js"
import {
  adjustWallet,
  deliveriesOf,
  expectLiteral,
  expectRefund,
  expectRefused,
  paidPayment,
  refund,
  refundState,
  uniqueRef,
  WALLET_SHORT,
  walletBalance
} from "./refund-fixtures.js"
import type { Target } from "./signing.js"

const FEES = { fee_percent: 2.9, fee_fixed: 0.3 }

/** Spec 2.4 and 4.3: full and partial refunds, exact money, verify and the refund event. */
export const refundCases = (target: () => Target) =>
  describe("refund-payment", () => {
    it("refunds 12.34 then the rest: exact amounts in the text, the wallet debited by each, verify follows, status stays success", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      expect(await walletBalance(target(), shop)).toBe("100")

      const first = await refund(shop.sandbox, { trx_id: trxId, reason: "one damaged item" }, "12.34")
      const partial = expectRefund(first, { original: trxId, refunded: "12.34", total: "12.34", remaining: "87.66", fully: false })
      expect(await walletBalance(target(), shop)).toBe("87.66")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "12.34", fully: false })

      const rest = await refund(shop.sandbox, { trx_id: trxId })
      const full = expectRefund(rest, { original: trxId, refunded: "87.66", total: "100", remaining: "0", fully: true })
      expect(full.refund_trx_id).not.toBe(partial.refund_trx_id)
      expect(await walletBalance(target(), shop)).toBe("0")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "100", fully: true })
      // The payment's own figures are untouched by its refunds.
      const verified = expectOk(await shop.sandbox.call({ path: `/api/v1/verify-payment/${trxId}` }))
      expect(verified).toMatchObject({ amount: 100, fee: 0, net_amount: 100, currency: "USD" })
    })

    it("omitting amount refunds the whole payment in one call", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "42.5")
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }), { original: trxId, refunded: "42.5", total: "42.5", remaining: "0", fully: true })
      expect(await walletBalance(target(), shop)).toBe("0")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "42.5", fully: true })
    })

    it("accumulates partial refunds exactly (0.1 + 0.2 + the rest) and reports fully_refunded only at the full amount", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "1")
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "0.1"), { original: trxId, refunded: "0.1", total: "0.1", remaining: "0.9", fully: false })
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "0.2"), { original: trxId, refunded: "0.2", total: "0.3", remaining: "0.7", fully: false })
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "0.3", fully: false })
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "0.69"), { original: trxId, refunded: "0.69", total: "0.99", remaining: "0.01", fully: false })
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "0.99", fully: false })
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "0.01"), { original: trxId, refunded: "0.01", total: "1", remaining: "0", fully: true })
      expect(await walletBalance(target(), shop)).toBe("0")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "1", fully: true })
    })

    it("does not return the fee: 100 at 2.9 % + 0.30 credited 96.8 cannot be fully refunded until the wallet is funded, and each refund debits its full amount", async () => {
      const shop = await createShop(target(), { merchant: FEES })
      const trxId = await paidPayment(shop, "100")
      expect(await walletBalance(target(), shop)).toBe("96.8")
      expectRefused(await refund(shop.sandbox, { trx_id: trxId }), WALLET_SHORT)
      expect(await walletBalance(target(), shop)).toBe("96.8")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "0", fully: false })

      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "50"), { original: trxId, refunded: "50", total: "50", remaining: "50", fully: false })
      expect(await walletBalance(target(), shop)).toBe("46.8")
      await adjustWallet(target(), shop.wallet("USD").id, "3.2")
      expect(await walletBalance(target(), shop)).toBe("50")
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }), { original: trxId, refunded: "50", total: "100", remaining: "0", fully: true })
      expect(await walletBalance(target(), shop)).toBe("0")
    })

    it.each([
      // currency, payment, refused amounts, an accepted amount, what remains after it
      ["USD", "100", ["0", "-0", "-5", "-0.01", "10.001", "0.001", '"ten"', "true", "[10]", '{"value":10}'], "0.01", "99.99"],
      ["JPY", "1000", ["0", "-1", "0.5", "1.5", "100.01"], "100.0", "900"],
      ["KWD", "10", ["0", "-0.001", "1.2345", "0.0001"], "1.234", "8.766"]
    ] as const)("in %s: refuses amounts beyond the minor unit, not positive or not numbers with 422 INVALID_AMOUNT, moving nothing", async (currency, paid, bad, good, remaining) => {
      const shop = await createShop(target(), { currencies: [currency] })
      const trxId = await paidPayment(shop, paid, currency)
      for (const amount of bad) {
        const response = await refund(shop.sandbox, { trx_id: trxId }, amount)
        expectError(response, { status: 422, errorCode: "INVALID_AMOUNT", fields: ["amount"] })
      }
      expect(await walletBalance(target(), shop, currency)).toBe(paid)
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "0", fully: false })

      const accepted = await refund(shop.sandbox, { trx_id: trxId }, good)
      const refunded = String(Number(good))
      expectRefund(accepted, { original: trxId, refunded, total: refunded, remaining, fully: false, currency })
      expect(await walletBalance(target(), shop, currency)).toBe(remaining)
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }), { original: trxId, refunded: remaining, total: paid, remaining: "0", fully: true, currency })
      expect(await walletBalance(target(), shop, currency)).toBe("0")
    })

    it("refuses a body without trx_id, or with a trx_id that is not a string, with 422 naming trx_id", async () => {
      const shop = await createShop(target())
      expectError(await refund(shop.sandbox, {}, "10"), { status: 422, fields: ["trx_id"] })
      expectError(await refund(shop.sandbox, { trx_id: 12345 }), { status: 422, fields: ["trx_id"] })
    })

    it("enqueues one payment.refunded webhook per refund to the payment's ipn_url", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(0)
      const ref = uniqueRef("refund")
      expectOk(await refund(shop.sandbox, { trx_id: trxId, ref_refund: ref }, "30"))
      const once = await deliveriesOf(target(), shop.merchant.id, "payment.refunded")
      expect(once).toHaveLength(1)
      expect(once[0]).toMatchObject({ merchant_id: shop.merchant.id, environment: "sandbox", event: "payment.refunded", url: IPN_URL })
      // A repeated ref_refund refunds nothing, so it announces nothing.
      expectOk(await refund(shop.sandbox, { trx_id: trxId, ref_refund: ref }, "30"))
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(1)
      expectOk(await refund(shop.sandbox, { trx_id: trxId }))
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(2)
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.completed")).toHaveLength(1)
    })

    it("ref_refund: a repeat answers 200 with the original body (its totals as they were) and moves no money, also after a full refund; another amount is a 409", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      const ref = uniqueRef("refund")
      const firstResponse = await refund(shop.sandbox, { trx_id: trxId, ref_refund: ref, reason: "late delivery" }, "10")
      const first = expectRefund(firstResponse, { original: trxId, refunded: "10", total: "10", remaining: "90", fully: false })
      expectRefund(await refund(shop.sandbox, { trx_id: trxId, ref_refund: uniqueRef("other") }, "20"), {
        original: trxId, refunded: "20", total: "30", remaining: "70", fully: false
      })
      expect(await walletBalance(target(), shop)).toBe("70")

      for (const amount of ["10", "10.00", undefined]) {
        const again = await refund(shop.sandbox, { trx_id: trxId, ref_refund: ref, reason: "late delivery" }, amount)
        expect(expectOk(again), `amount ${amount}`).toEqual(first)
        expectLiteral(again, "total_refunded", "10")
        expectLiteral(again, "remaining_refund", "90")
      }
      // The same reference with another amount is another request: refused, never answered as done.
      const conflict = expectError(await refund(shop.sandbox, { trx_id: trxId, ref_refund: ref }, "50"), {
        status: 409,
        errorCode: "DUPLICATE_REFERENCE"
      })
      expect(Object.keys(conflict.errors)).toEqual(["ref_refund"])
      expect(await walletBalance(target(), shop)).toBe("70")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "30", fully: false })

      expectRefund(await refund(shop.sandbox, { trx_id: trxId }), { original: trxId, refunded: "70", total: "100", remaining: "0", fully: true })
      // Still the original answer, not "already fully refunded".
      expect(expectOk(await refund(shop.sandbox, { trx_id: trxId, ref_refund: ref }, "10"))).toEqual(first)
      expect(await walletBalance(target(), shop)).toBe("0")
    })

    it("ref_refund is per payment: the same reference on another payment refunds it independently", async () => {
      const shop = await createShop(target())
      const one = await paidPayment(shop, "100")
      const two = await paidPayment(shop, "50")
      const ref = uniqueRef("shared")
      const a = expectRefund(await refund(shop.sandbox, { trx_id: one, ref_refund: ref }, "10"), { original: one, refunded: "10", total: "10", remaining: "90", fully: false })
      const b = expectRefund(await refund(shop.sandbox, { trx_id: two, ref_refund: ref }, "10"), { original: two, refunded: "10", total: "10", remaining: "40", fully: false })
      expect(b.refund_trx_id).not.toBe(a.refund_trx_id)
      expect(await walletBalance(target(), shop)).toBe("130")
      expect(await refundState(shop.sandbox, one)).toEqual({ status: "success", refunded: "10", fully: false })
      expect(await refundState(shop.sandbox, two)).toEqual({ status: "success", refunded: "10", fully: false })
    })

    it("without ref_refund or Idempotency-Key, two identical calls are two refunds", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      const a = expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "10"), { original: trxId, refunded: "10", total: "10", remaining: "90", fully: false })
      const b = expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "10"), { original: trxId, refunded: "10", total: "20", remaining: "80", fully: false })
      expect(b.refund_trx_id).not.toBe(a.refund_trx_id)
      expect(await walletBalance(target(), shop)).toBe("80")
    })

    it("Idempotency-Key: the identical request is replayed (same text, marked replayed, money moved once); other parameters are 409", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      const headers = { "idempotency-key": uniqueRef("idem") }
      const first = await refund(shop.sandbox, { trx_id: trxId }, "25", headers)
      expectRefund(first, { original: trxId, refunded: "25", total: "25", remaining: "75", fully: false })
      const again = await refund(shop.sandbox, { trx_id: trxId }, "25", headers)
      expect(again.status).toBe(200)
      expect(again.text).toBe(first.text)
      expect(again.headers["idempotent-replayed"]).toBe("true")
      expect(await walletBalance(target(), shop)).toBe("75")
      expectError(await refund(shop.sandbox, { trx_id: trxId }, "30", headers), { status: 409, errorCode: "IDEMPOTENCY_CONFLICT" })
      expect(await walletBalance(target(), shop)).toBe("75")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "25", fully: false })
    })
  })
