import { describe, expect, it } from "vitest"
import { Instant } from "../shared/instant.js"
import { deliveryTarget } from "./delivery-target.js"
import { defaultDispatchPolicy, leaseSecondsFor, merchantShare, nextAfter, slowAfterMillisFor } from "./dispatcher.js"

const at = Instant(1_800_000_000_000_000n)

describe("webhook retry schedule", () => {
  it("3 attempts in total: again after 60 s, then 300 s, then failed for good", () => {
    expect(nextAfter(1, false, at, defaultDispatchPolicy)).toEqual({ status: "pending", nextAttemptAt: Instant(at + 60_000_000n) })
    expect(nextAfter(2, false, at, defaultDispatchPolicy)).toEqual({ status: "pending", nextAttemptAt: Instant(at + 300_000_000n) })
    expect(nextAfter(3, false, at, defaultDispatchPolicy)).toEqual({ status: "failed" })
  })

  it("a 2xx on any attempt delivers it", () => {
    for (const attempt of [1, 2, 3]) expect(nextAfter(attempt, true, at, defaultDispatchPolicy)).toEqual({ status: "delivered" })
  })

  it("leases a claimed delivery for longer than its send may take", () => {
    expect(leaseSecondsFor(10_000)).toBe(120)
    expect(leaseSecondsFor(120_000)).toBe(180)
    // A hung receiver holds at most perTarget senders; the others keep delivering.
    expect(defaultDispatchPolicy.perTarget).toBeLessThan(defaultDispatchPolicy.concurrency)
  })

  it("follows configured delays: their count sets the number of attempts", () => {
    const policy = { ...defaultDispatchPolicy, retryDelaysMillis: [500] }
    expect(nextAfter(1, false, at, policy)).toEqual({ status: "pending", nextAttemptAt: Instant(at + 500_000n) })
    expect(nextAfter(2, false, at, policy)).toEqual({ status: "failed" })
  })
})

describe("delivery lanes and merchants' shares", () => {
  it("a merchant holds a quarter of each lane's slots by default, and at least one of any lane", () => {
    expect(merchantShare(defaultDispatchPolicy, "fast")).toBe(8)
    expect(merchantShare(defaultDispatchPolicy, "slow")).toBe(2)
    expect(merchantShare({ ...defaultDispatchPolicy, slowLaneConcurrency: 2 }, "slow")).toBe(1)
    expect(merchantShare({ ...defaultDispatchPolicy, merchantSharePercent: 100 }, "fast")).toBe(32)
  })

  it("an attempt that took half the send timeout marks its target slow: 5 s of the default 10 s", () => {
    expect(slowAfterMillisFor(10_000)).toBe(5_000)
    expect(slowAfterMillisFor(1)).toBe(1)
  })
})

describe("a failed attempt's log names the target by origin only", () => {
  it("drops user info, path and query, which may hold the merchant's tokens", () => {
    expect(deliveryTarget("https://user:pass@shop.example:8443/ipn?token=abc")).toBe("https://shop.example:8443")
    expect(deliveryTarget("HTTP://shop.example/hooks/secret-path")).toBe("http://shop.example")
    expect(deliveryTarget("not a url")).toBe("(invalid URL)")
  })
})
