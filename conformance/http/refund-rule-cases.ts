import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { createShop, simulate, startSession } from "./payment-fixtures.js"
import {
  adjustWallet,
  deliveriesOf,
  describeAll,
  EXCEEDS,
  expectLiteral,
  expectRefund,
  expectRefused,
  FULLY_REFUNDED,
  NOT_COMPLETED,
  NOT_FOUND,
  paidPayment,
  refund,
  REFUND,
  refundState,
  uniqueRef,
  WALLET_SHORT,
  walletBalance
} from "./refund-fixtures.js"
import type { Target } from "./signing.js"

/** Spec 4.3: whose payment, which environment, the 422 refusals in their order, and refunds racing. */
export const refundRuleCases = (target: () => Target) =>
  describe("refund-payment: scope, refusals and races", () => {
    it("answers 404 NOT_FOUND for an unknown trx_id, another merchant's payment and a payment of the other environment; nothing moves", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const other = await createShop(target(), { production: true })
      const paid = await paidPayment(shop, "100")
      const production = (await startSession(shop.production, "10")).info.trx_id as string
      expect(production).toMatch(/^PRODUCTION_/)

      expectError(await refund(other.sandbox, { trx_id: paid }), NOT_FOUND)
      expectError(await refund(other.sandbox, { trx_id: paid, ref_refund: uniqueRef() }, "1"), NOT_FOUND)
      // X-Environment must match the payment's environment, whatever the keys.
      expectError(await refund(shop.production, { trx_id: paid }), NOT_FOUND)
      expectError(await refund(shop.production, { trx_id: paid }, "1"), NOT_FOUND)
      expectError(await refund(other.production, { trx_id: paid }), NOT_FOUND)
      expectError(await refund(shop.sandbox, { trx_id: production }), NOT_FOUND)
      // In its own environment the production payment is found: it is just not completed.
      expectRefused(await refund(shop.production, { trx_id: production }), NOT_COMPLETED)
      for (const unknown of [`SANDBOX_${"0".repeat(26)}`, paid.toLowerCase(), paid.replace(/.$/, (c) => (c === "A" ? "B" : "A")), "nope"]) {
        expectError(await refund(shop.sandbox, { trx_id: unknown }), NOT_FOUND)
      }
      // Found elsewhere or not at all, the refusal says the same.
      const foreign = await refund(other.sandbox, { trx_id: paid })
      const missing = await refund(other.sandbox, { trx_id: `SANDBOX_${"0".repeat(26)}` })
      expect(foreign.json().message).toBe(missing.json().message)

      expect(await walletBalance(target(), shop)).toBe("100")
      expect(await refundState(shop.sandbox, paid)).toEqual({ status: "success", refunded: "0", fully: false })
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(0)
    })

    it("requires the signed merchant headers like every merchant endpoint", async () => {
      const shop = await createShop(target())
      const paid = await paidPayment(shop, "10")
      const body = JSON.stringify({ trx_id: paid })
      expectError(await shop.sandbox.call({ method: "POST", path: REFUND, body, signature: null }), { status: 401, errorCode: "INVALID_CREDENTIALS" })
      expectError(await shop.sandbox.call({ method: "POST", path: REFUND, body, apiKey: undefined }), { status: 401, errorCode: "INVALID_CREDENTIALS" })
      expect(await walletBalance(target(), shop)).toBe("10")
    })

    it(`refuses a pending or a failed payment with "${NOT_COMPLETED}" before any other rule; once completed it refunds`, async () => {
      const shop = await createShop(target())
      const pending = (await startSession(shop.sandbox, "100")).info.trx_id as string
      const failed = (await startSession(shop.sandbox, "100")).info.trx_id as string
      expect(expectOk(await simulate(shop.sandbox, failed, "failed")).status).toBe("failed")
      // The wallet is empty and 1000 exceeds the amount: the state is still what is reported.
      for (const trxId of [pending, failed]) {
        for (const amount of [undefined, "10", "1000"]) {
          expectRefused(await refund(shop.sandbox, { trx_id: trxId, ref_refund: uniqueRef() }, amount), NOT_COMPLETED)
        }
      }
      expect(await refundState(shop.sandbox, pending)).toEqual({ status: "pending", refunded: "0", fully: false })
      expect(await refundState(shop.sandbox, failed)).toEqual({ status: "failed", refunded: "0", fully: false })
      expect(await walletBalance(target(), shop)).toBe("0")

      expect(expectOk(await simulate(shop.sandbox, pending, "success")).status).toBe("success")
      expectRefund(await refund(shop.sandbox, { trx_id: pending }), { original: pending, refunded: "100", total: "100", remaining: "0", fully: true })
    })

    it(`refuses any further refund of a fully refunded payment with "${FULLY_REFUNDED}", whatever the amount or the wallet`, async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      expectOk(await refund(shop.sandbox, { trx_id: trxId }))
      expect(await walletBalance(target(), shop)).toBe("0")
      // Empty wallet, amounts above the original: still "fully refunded", checked before both.
      for (const amount of [undefined, "0.01", "100", "1000"]) expectRefused(await refund(shop.sandbox, { trx_id: trxId }, amount), FULLY_REFUNDED)
      await adjustWallet(target(), shop.wallet("USD").id, "500")
      for (const amount of [undefined, "0.01", "1000"]) {
        expectRefused(await refund(shop.sandbox, { trx_id: trxId, ref_refund: uniqueRef() }, amount), FULLY_REFUNDED)
      }
      expect(await walletBalance(target(), shop)).toBe("500")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "100", fully: true })
    })

    it(`refuses more than the remaining balance with "${EXCEEDS}", checked before the wallet`, async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      expectRefused(await refund(shop.sandbox, { trx_id: trxId }, "100.01"), EXCEEDS)
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "60"), { original: trxId, refunded: "60", total: "60", remaining: "40", fully: false })
      await adjustWallet(target(), shop.wallet("USD").id, "-40")
      expect(await walletBalance(target(), shop)).toBe("0")
      // The wallet is empty too, yet an amount over the remaining 40 is refused for exceeding it.
      for (const amount of ["40.01", "100", "1000"]) expectRefused(await refund(shop.sandbox, { trx_id: trxId }, amount), EXCEEDS)
      for (const amount of ["40", undefined, "0.01"]) expectRefused(await refund(shop.sandbox, { trx_id: trxId }, amount), WALLET_SHORT)
      await adjustWallet(target(), shop.wallet("USD").id, "500")
      expectRefused(await refund(shop.sandbox, { trx_id: trxId }, "40.01"), EXCEEDS)
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "40"), { original: trxId, refunded: "40", total: "100", remaining: "0", fully: true })
      expect(await walletBalance(target(), shop)).toBe("460")
    })

    it(`refuses a refund larger than the wallet holds with "${WALLET_SHORT}" and moves nothing; a refund it covers goes through`, async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      await adjustWallet(target(), shop.wallet("USD").id, "-60")
      expect(await walletBalance(target(), shop)).toBe("40")
      for (const amount of [undefined, "40.01", "100"]) expectRefused(await refund(shop.sandbox, { trx_id: trxId, ref_refund: uniqueRef() }, amount), WALLET_SHORT)
      expect(await walletBalance(target(), shop)).toBe("40")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "0", fully: false })
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(0)

      expectRefund(await refund(shop.sandbox, { trx_id: trxId }, "40"), { original: trxId, refunded: "40", total: "40", remaining: "60", fully: false })
      expect(await walletBalance(target(), shop)).toBe("0")
      expectRefused(await refund(shop.sandbox, { trx_id: trxId }, "0.01"), WALLET_SHORT)
      await adjustWallet(target(), shop.wallet("USD").id, "60")
      expectRefund(await refund(shop.sandbox, { trx_id: trxId }), { original: trxId, refunded: "60", total: "100", remaining: "0", fully: true })
      expect(await walletBalance(target(), shop)).toBe("0")
    })

    it("10 concurrent refunds with one ref_refund all answer 200 with the same refund; money moves once", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      const ref = uniqueRef("race")
      const responses = await Promise.all(Array.from({ length: 10 }, () => refund(shop.sandbox, { trx_id: trxId, ref_refund: ref }, "30")))
      const bodies = responses.map((response) => expectRefund(response, { original: trxId, refunded: "30", total: "30", remaining: "70", fully: false }))
      expect(new Set(bodies.map((body) => body.refund_trx_id)).size, describeAll(responses)).toBe(1)
      for (const body of bodies) expect(body).toEqual(bodies[0])
      expect(await walletBalance(target(), shop)).toBe("70")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "30", fully: false })
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(1)
    })

    it("8 concurrent partial refunds of 20.00 on 100.00: exactly 5 succeed, the rest are refused, the wallet moves by exactly 100", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100.00")
      await adjustWallet(target(), shop.wallet("USD").id, "50")
      expect(await walletBalance(target(), shop)).toBe("150")
      const refs = Array.from({ length: 8 }, () => uniqueRef("part"))
      const responses = await Promise.all(refs.map((ref) => refund(shop.sandbox, { trx_id: trxId, ref_refund: ref }, "20.00")))
      const context = describeAll(responses)
      // Money first: five refunds of 20 and not a cent more, wherever the totals below go wrong.
      expect(responses.filter((response) => response.status === 200), context).toHaveLength(5)
      expect(await walletBalance(target(), shop)).toBe("50")
      expect(await refundState(shop.sandbox, trxId)).toEqual({ status: "success", refunded: "100", fully: true })
      expect(await deliveriesOf(target(), shop.merchant.id, "payment.refunded")).toHaveLength(5)
      for (const response of responses) {
        if (response.status === 200) continue
        const body = expectError(response, { status: 422 })
        expect([EXCEEDS, FULLY_REFUNDED], context).toContain(body.message)
        expectRefused(response, body.message)
      }
      // Each answer reports the totals after its own refund: they step 20, 40, 60, 80, 100.
      const bodies = responses.flatMap((response) => {
        if (response.status !== 200) return []
        const body = expectOk(response)
        expectLiteral(response, "refunded_amount", "20")
        expectLiteral(response, "remaining_refund", String(100 - body.total_refunded))
        expect(body.fully_refunded, context).toBe(body.total_refunded === 100)
        return [body]
      })
      expect(new Set(bodies.map((body) => body.refund_trx_id)).size).toBe(5)
      expect(bodies.map((body) => body.total_refunded).sort((a, b) => a - b), context).toEqual([20, 40, 60, 80, 100])
      // A repeat of each winning reference answers with that refund again.
      for (const [index, response] of responses.entries()) {
        if (response.status !== 200) continue
        expect(expectOk(await refund(shop.sandbox, { trx_id: trxId, ref_refund: refs[index] }, "20.00"))).toEqual(response.json())
      }
      expect(await walletBalance(target(), shop)).toBe("50")
    })

    it("5 concurrent full refunds: exactly one succeeds, the others are told the payment is fully refunded", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "100")
      await adjustWallet(target(), shop.wallet("USD").id, "400")
      const responses = await Promise.all(Array.from({ length: 5 }, () => refund(shop.sandbox, { trx_id: trxId })))
      const won = responses.filter((response) => response.status === 200)
      expect(won, describeAll(responses)).toHaveLength(1)
      expectRefund(won[0]!, { original: trxId, refunded: "100", total: "100", remaining: "0", fully: true })
      for (const response of responses) if (response.status !== 200) expectRefused(response, FULLY_REFUNDED)
      expect(await walletBalance(target(), shop)).toBe("400")
    })
  })
