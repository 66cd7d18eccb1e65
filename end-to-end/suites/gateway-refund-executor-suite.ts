import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { GatewayRefunds } from "../../core/refunds/gateway-refund.js"
import { executeDueRefunds, MAX_GATEWAY_REFUND_ATTEMPTS, retryDelay } from "../../core/refunds/gateway-refund-executor.js"
import { refundPayment } from "../../core/refunds/refund-payment.js"
import { MICROS_PER_SECOND } from "../../core/shared/instant.js"
import type { StoreConfig } from "../../hosts/kit-layer.js"
import { GATEWAY_SECRET, makeRefundKit, type RefundKit, type RefundStep } from "./gateway-refund-kit.js"

/**
 * The gateway refund outbox executed against a real store, with a scripted plugin: one key per refund
 * whatever happens, retries on the published backoff, a final word recorded, one caller per row.
 */
export const gatewayRefundExecutorSuite = (name: string, store: () => StoreConfig) =>
  describe(`gateway refund executor: ${name}`, () => {
    let kit: RefundKit
    beforeAll(async () => {
      kit = await makeRefundKit(store())
    })
    afterAll(() => kit.dispose())

    /** A whole refund of a fresh payment through the whole-refunds plugin, its answers scripted. */
    const refunded = async (steps: ReadonlyArray<RefundStep> = []) => {
      const payment = await kit.paidPayment(kit.gateways.whole)
      kit.whole.script(payment.trxId, steps)
      const { refund } = await kit.run(refundPayment(kit.caller, { trxId: payment.trxId, amount: undefined, reason: null, refRefund: null }))
      return { payment, refund }
    }
    const row = (refundTrxId: string) => kit.run(Effect.flatMap(GatewayRefunds, (store) => store.find(refundTrxId))).then(Option.getOrThrow)
    const seconds = (micros: bigint) => Number(micros / MICROS_PER_SECOND)

    it("calls the plugin once with the refund's facts and key, and records succeeded with the gateway's reference", async () => {
      const { payment, refund } = await refunded()
      await kit.execute()
      await kit.execute()
      const calls = kit.whole.callsFor(payment.trxId)
      expect(calls.length).toBe(1)
      expect(calls[0]).toMatchObject({
        trxId: payment.trxId,
        refundTrxId: refund.refundTrxId,
        idempotencyKey: `mp-refund-${refund.refundTrxId}`,
        gatewayReference: `gw-${payment.trxId}`,
        amount: "100.00",
        currency: "USD",
        environment: "sandbox",
        gateway: { id: kit.gateways.whole.id, code: kit.gateways.whole.code },
        config: { api_key: GATEWAY_SECRET }
      })
      expect(await row(refund.refundTrxId)).toMatchObject({
        status: "succeeded",
        attempts: 1,
        nextAttemptAt: null,
        gatewayReference: `re_${refund.refundTrxId}`,
        message: null
      })
      const outcome = kit.logs.find((line) => line.includes(refund.refundTrxId) && line.includes("gateway refund succeeded"))
      expect(outcome).toContain(`gateway=${kit.gateways.whole.code}`)
      expect(outcome).toContain("status=succeeded")
      expect(kit.logs.filter((line) => line.includes(GATEWAY_SECRET))).toEqual([])
    })

    it("retries a thrown and a failed call after 1 and 5 minutes with the same key: attempts 3, then succeeded", async () => {
      const { payment, refund } = await refunded(["throw", "fail"])
      await kit.execute()
      const first = await row(refund.refundTrxId)
      expect(first).toMatchObject({ status: "pending", attempts: 1, message: "connection reset by the gateway" })
      expect(seconds(first.nextAttemptAt! - first.updatedAt)).toBe(60)
      await kit.execute()
      expect(kit.whole.callsFor(payment.trxId).length).toBe(1)

      await kit.advance(60)
      await kit.execute()
      const second = await row(refund.refundTrxId)
      expect(second).toMatchObject({ status: "pending", attempts: 2, message: "gateway unavailable" })
      expect(seconds(second.nextAttemptAt! - second.updatedAt)).toBe(300)

      await kit.advance(300)
      await kit.execute()
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "succeeded", attempts: 3, nextAttemptAt: null, message: null })
      const keys = kit.whole.callsFor(payment.trxId).map((call) => call.idempotencyKey)
      expect(keys).toEqual(Array(3).fill(`mp-refund-${refund.refundTrxId}`))
    })

    it("asks again later while the gateway says pending, keeping its reference, until it says succeeded", async () => {
      const { payment, refund } = await refunded([{ status: "pending", gatewayRefundReference: "re_pending", message: "queued at the bank" }, { status: "succeeded" }])
      await kit.execute()
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "pending", attempts: 1, gatewayReference: "re_pending", message: "queued at the bank" })
      await kit.advance(60)
      await kit.execute()
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "succeeded", attempts: 2, nextAttemptAt: null, gatewayReference: "re_pending" })
      expect(new Set(kit.whole.callsFor(payment.trxId).map((call) => call.idempotencyKey)).size).toBe(1)
    })

    it("records the gateway's refusal as failed at once, with its message", async () => {
      const { payment, refund } = await refunded([{ status: "failed", message: "card account closed" }])
      await kit.execute()
      await kit.advance(86_400)
      await kit.execute()
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null, message: "card account closed" })
      expect(kit.whole.callsFor(payment.trxId).length).toBe(1)
    })

    it(`gives up after ${MAX_GATEWAY_REFUND_ATTEMPTS} failed calls on the published backoff, and is never called again`, async () => {
      const { payment, refund } = await refunded(Array(MAX_GATEWAY_REFUND_ATTEMPTS + 2).fill("fail"))
      const waits: Array<number> = []
      for (let call = 1; call <= MAX_GATEWAY_REFUND_ATTEMPTS; call++) {
        await kit.execute()
        const current = await row(refund.refundTrxId)
        expect(current.attempts).toBe(call)
        if (current.nextAttemptAt !== null) {
          waits.push(seconds(current.nextAttemptAt - current.updatedAt))
          await kit.advance(seconds(retryDelay(call)))
        }
      }
      expect(waits).toEqual([60, 300, 1800, 7200, 21600, 43200, 43200, 43200, 43200])
      expect(await row(refund.refundTrxId)).toMatchObject({
        status: "failed",
        attempts: MAX_GATEWAY_REFUND_ATTEMPTS,
        nextAttemptAt: null,
        message: `gave up after ${MAX_GATEWAY_REFUND_ATTEMPTS} attempts: gateway unavailable`
      })
      await kit.advance(86_400 * 30)
      await kit.execute()
      expect(kit.whole.callsFor(payment.trxId).length).toBe(MAX_GATEWAY_REFUND_ATTEMPTS)
    })

    it("a refund committed while no executor ran is executed by the next host to start its background jobs", async () => {
      const { payment, refund } = await refunded()
      const host = await kit.startHostWithJobs()
      try {
        const started = Date.now()
        while ((await row(refund.refundTrxId)).status === "pending" && Date.now() - started < 10_000) await new Promise((resolve) => setTimeout(resolve, 20))
      } finally {
        await host.dispose()
      }
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "succeeded", attempts: 1 })
      expect(kit.whole.callsFor(payment.trxId).length).toBe(1)
    })

    it("keeps its lease on the wall clock: business time moved an hour mid-call does not call the gateway twice", async () => {
      const { payment, refund } = await refunded(["slow"])
      const first = kit.execute()
      while (kit.whole.callsFor(payment.trxId).length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      // The call is in flight (half a second) when the manual clock jumps far past the 5 min lease.
      await kit.advance(3_600)
      await kit.execute()
      await first
      expect(kit.whole.callsFor(payment.trxId).length).toBe(1)
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "succeeded", attempts: 1 })
    })

    it("two executors racing for one due row: the plugin is called once", async () => {
      const { payment, refund } = await refunded()
      await kit.run(Effect.all([executeDueRefunds(50), executeDueRefunds(50), executeDueRefunds(50)], { concurrency: "unbounded" }))
      expect(kit.whole.callsFor(payment.trxId).length).toBe(1)
      expect(await row(refund.refundTrxId)).toMatchObject({ status: "succeeded", attempts: 1 })
    })
  })
