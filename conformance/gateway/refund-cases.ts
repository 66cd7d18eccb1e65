import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { expect, it } from "vitest"
import type { PluginCapabilities, RefundContext } from "../../core/gateways/gateway-plugin.js"
import { executeDueRefunds } from "../../core/refunds/gateway-refund-executor.js"
import { GatewayRefunds } from "../../core/refunds/gateway-refund.js"
import type { GoldenContext } from "./golden-cases.js"
import type { KitUnderTest } from "./kit-harness.js"

/** A payment paid at the gateway and completed in the kit, by return or by notification. */
export const paidPayment = async ({ driver, kit }: GoldenContext) => {
  const payment = await kit().initiate()
  const { checkout } = await kit().choose(payment)
  expect(checkout).toBeDefined()
  const action = await driver.customer(checkout!, "paid")
  if (action !== undefined && "returnFields" in action) await kit().comeBack(checkout!, action)
  else if (driver.notification !== undefined) await kit().notify(await driver.notification(checkout!, "paid"))
  expect((await kit().payment(checkout!.trxId)).status).toBe("success")
  return checkout!
}

const gatewayRefund = (kit: KitUnderTest, refundTrxId: string) =>
  kit.run(Effect.map(Effect.flatMap(GatewayRefunds, (refunds) => refunds.find(refundTrxId)), Option.getOrThrow))

/**
 * Money back to the card: the refund is committed (and the wallet debited) without waiting for the
 * gateway, then leaves through the outbox with one idempotency key however often it is retried.
 */
export const refundCases = (context: GoldenContext, capabilities: PluginCapabilities) => {
  const { controls, driver, kit } = context

  it.skipIf(!capabilities.refunds)("refund round trip: committed at once, sent with a stable idempotency key, retried after a failure", async () => {
    const checkout = await paidPayment(context)
    const refund = await kit().refund(checkout.trxId)
    const queued = await gatewayRefund(kit(), refund.refundTrxId)
    expect([queued.status, queued.attempts, queued.idempotencyKey]).toEqual(["pending", 0, `mp-refund-${refund.refundTrxId}`])

    controls().failOnce.add("refund")
    await kit().run(executeDueRefunds(10))
    expect((await gatewayRefund(kit(), refund.refundTrxId)).status).toBe("pending")
    await kit().run(kit().clock.advance(3_600))
    await kit().run(executeDueRefunds(10))
    const done = await gatewayRefund(kit(), refund.refundTrxId)
    expect(done.status).toBe("succeeded")
    // Nothing is sent again once the gateway has answered.
    await kit().run(kit().clock.advance(86_400))
    await kit().run(executeDueRefunds(10))

    const calls = controls().calls.filter((call) => call.call === "refund").map((call) => call.context as RefundContext<unknown>)
      .filter((context) => context.refundTrxId === refund.refundTrxId)
    expect(calls.map((context) => context.idempotencyKey)).toEqual([done.idempotencyKey, done.idempotencyKey])
    expect(calls[0]).toMatchObject({ trxId: checkout.trxId, amount: checkout.amount, currency: checkout.currency })
    if (driver.refundsReceived !== undefined) {
      const received = await driver.refundsReceived(checkout)
      expect(new Set(received.map((item) => item.idempotencyKey))).toEqual(new Set([done.idempotencyKey]))
    }
  })

  it.skipIf(!capabilities.refunds)("a partial refund follows the capability: sent for the part refunded, or refused before any money moves", async () => {
    const checkout = await paidPayment(context)
    if (!capabilities.partialRefunds) {
      const refused = await kit().refundEither(checkout.trxId, "1.00")
      expect(refused).toMatchObject({ _tag: "Left", left: { _tag: "PartialRefundUnsupported" } })
      expect((await kit().payment(checkout.trxId)).refundedAmount).toBe(0n)
      return
    }
    const refund = await kit().refund(checkout.trxId, "1.00")
    await kit().run(executeDueRefunds(10))
    expect((await gatewayRefund(kit(), refund.refundTrxId)).status).toBe("succeeded")
    const sent = controls().calls.find((call) => call.call === "refund" && (call.context as RefundContext<unknown>).refundTrxId === refund.refundTrxId)
    expect((sent?.context as RefundContext<unknown>).amount).toMatch(/^1(\.0+)?$/)
  })
}
