import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { GatewayId } from "../shared/ids.js"
import { fromSeconds, MICROS_PER_SECOND } from "../shared/instant.js"
import { type GatewayRefund, newGatewayRefund } from "./gateway-refund.js"
import { leaseMicros, MAX_GATEWAY_REFUND_ATTEMPTS, progressAfter, retryDelay } from "./gateway-refund-executor.js"

const at = fromSeconds(1_900_000_000)
const row: GatewayRefund = {
  ...newGatewayRefund({ refundTrxId: "SANDBOX_RF1", paymentTrxId: "SANDBOX_P1", amount: Amount(1_000n), currency: "USD" }, GatewayId(3), at),
  gatewayReference: "re_earlier"
}
const failure = Either.left({ reason: "timed_out", message: "no answer within 10s" })

describe("gateway refund executor rules", () => {
  it("waits 1 min, 5 min, 30 min, 2 h, 6 h, then every 12 h", () => {
    expect([1, 2, 3, 4, 5, 6, 9].map((n) => Number(retryDelay(n) / MICROS_PER_SECOND))).toEqual([60, 300, 1800, 7200, 21600, 43200, 43200])
  })

  it("holds a claimed row twice the plugin timeout, or 5 minutes when the timeout is not given", () => {
    expect(leaseMicros(10_000)).toBe(20n * MICROS_PER_SECOND)
    expect(leaseMicros()).toBe(300n * MICROS_PER_SECOND)
  })

  it("keeps the gateway's earlier reference when an answer or a failure carries none", () => {
    expect(progressAfter(row, Either.right({ status: "succeeded" }), at)).toEqual({
      status: "succeeded", attempts: 1, nextAttemptAt: null, gatewayReference: "re_earlier", message: null, at
    })
    expect(progressAfter(row, failure, at)).toMatchObject({ status: "pending", gatewayReference: "re_earlier", message: "no answer within 10s" })
  })

  it("turns the last allowed failure into failed, naming the attempts and the last reason", () => {
    const last = { ...row, attempts: MAX_GATEWAY_REFUND_ATTEMPTS - 1 }
    expect(progressAfter(last, failure, at)).toMatchObject({
      status: "failed",
      attempts: MAX_GATEWAY_REFUND_ATTEMPTS,
      nextAttemptAt: null,
      message: `gave up after ${MAX_GATEWAY_REFUND_ATTEMPTS} attempts: no answer within 10s`
    })
    // The gateway saying pending is no failure: it is asked again whatever the count.
    expect(progressAfter({ ...row, attempts: 40 }, Either.right({ status: "pending" }), at)).toMatchObject({ status: "pending", attempts: 41 })
  })
})
