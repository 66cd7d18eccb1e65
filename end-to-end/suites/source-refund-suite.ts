import { Effect, Either } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { describeError } from "../../adapters/http/response/error-table.js"
import type { AmountInput } from "../../core/money/parse.js"
import { refundPayment } from "../../core/refunds/refund-payment.js"
import { StorageError } from "../../core/shared/storage-error.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import type { StoreConfig } from "../../hosts/kit-layer.js"
import { makeRefundKit, type RefundKit } from "./gateway-refund-kit.js"

/**
 * A committed refund of a payment whose gateway refunds enqueues its gateway refund in the same
 * transaction; a gateway that refunds whole payments only refuses a partial refund before any money
 * moves; payments without such a gateway refund exactly as before.
 */
export const sourceRefundSuite = (name: string, store: () => StoreConfig) =>
  describe(`refunds to the source: ${name}`, () => {
    let kit: RefundKit
    beforeAll(async () => {
      kit = await makeRefundKit(store())
    })
    afterAll(() => kit.dispose())

    const amount = (value: string): AmountInput => ({ kind: "string", value })
    const refund = (trxId: string, value: string | undefined) =>
      kit.run(Effect.either(refundPayment(kit.caller, { trxId, amount: value === undefined ? undefined : amount(value), reason: null, refRefund: null })))

    it("a partial refund on a whole-payments-only gateway is refused before any money moves; the whole refund is enqueued", async () => {
      const payment = await kit.paidPayment(kit.gateways.whole, "80.00")
      const before = await kit.moneyState(payment.trxId)
      const refused = await refund(payment.trxId, "30")
      expect(Either.isLeft(refused) && refused.left._tag).toBe("PartialRefundUnsupported")
      if (Either.isLeft(refused) && refused.left._tag === "PartialRefundUnsupported") {
        expect(describeError(refused.left)).toEqual({
          status: 422,
          message: "The given data was invalid.",
          errorCode: "VALIDATION_FAILED",
          errors: { amount: ["This payment's gateway can only refund the whole payment: 80.00 USD."] }
        })
      }
      expect(await kit.moneyState(payment.trxId)).toEqual(before)

      const whole = Either.getOrThrow(await refund(payment.trxId, "80"))
      const after = await kit.moneyState(payment.trxId)
      expect(before.balance - after.balance).toBe(payment.amount)
      expect(after.refunded).toBe(payment.amount)
      expect(after.gatewayRefunds).toEqual([{
        refundTrxId: whole.refund.refundTrxId,
        paymentTrxId: payment.trxId,
        gatewayId: kit.gateways.whole.id,
        amount: payment.amount,
        currency: "USD",
        idempotencyKey: `mp-refund-${whole.refund.refundTrxId}`,
        status: "pending",
        attempts: 0,
        nextAttemptAt: whole.refund.createdAt,
        gatewayReference: null,
        message: null,
        createdAt: whole.refund.createdAt,
        updatedAt: whole.refund.createdAt
      }])
      // The merchant's answer came before any call to the gateway.
      expect(kit.whole.callsFor(payment.trxId)).toEqual([])
    })

    it("the gateway refund commits with the refund or not at all: a failure later in the transaction rolls both back", async () => {
      const payment = await kit.paidPayment(kit.gateways.whole, "25.00")
      const before = await kit.moneyState(payment.trxId)
      // The refund's events are queued after its gateway refund is written: that queueing fails.
      const forced = new StorageError({ message: "forced after the gateway refund was written" })
      const failingOutbox = Effect.map(WebhookOutbox, (outbox) => ({
        ...outbox,
        enqueue: () => Effect.fail(forced),
        enqueueAll: () => Effect.fail(forced)
      }))
      const outcome = await kit.run(Effect.either(Effect.flatMap(failingOutbox, (outbox) =>
        Effect.provideService(refundPayment(kit.caller, { trxId: payment.trxId, amount: undefined, reason: null, refRefund: null }), WebhookOutbox, outbox))))
      expect(Either.isLeft(outcome) && outcome.left._tag).toBe("StorageError")
      expect(await kit.moneyState(payment.trxId)).toEqual(before)
      expect(before.gatewayRefunds).toEqual([])
    })

    it("payments no refunding gateway took refund in part as before, with no gateway refund", async () => {
      for (const gateway of [null, kit.gateways.none]) {
        const payment = await kit.paidPayment(gateway, "50.00")
        Either.getOrThrow(await refund(payment.trxId, "20"))
        Either.getOrThrow(await refund(payment.trxId, "30"))
        const after = await kit.moneyState(payment.trxId)
        expect([after.refunded, after.refunds.length, after.gatewayRefunds]).toEqual([payment.amount, 2, []])
        expect(after.ledgerSum).toBe(after.balance)
      }
    })

    it("a sandbox payment refunded in part gets a gateway refund that the executor marks succeeded", async () => {
      const payment = await kit.paidPayment(kit.gateways.sandbox, "40.00")
      const partial = Either.getOrThrow(await refund(payment.trxId, "15.50"))
      await kit.execute()
      const [row] = (await kit.moneyState(payment.trxId)).gatewayRefunds
      expect(row).toMatchObject({
        refundTrxId: partial.refund.refundTrxId,
        amount: partial.refund.amount,
        status: "succeeded",
        attempts: 1,
        nextAttemptAt: null,
        gatewayReference: `sandbox-refund-${partial.refund.refundTrxId}`
      })
    })
  })
