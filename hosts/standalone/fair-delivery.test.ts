import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { type Host, startHost } from "../../testing/hosts/child-hosts.js"
import { type Demo, readAdminToken, readDemo } from "../../testing/hosts/demo-fixtures.js"
import { type HungReceiver, type HungReceivers, runFairnessScenario, startHungReceiver, startHungReceivers } from "../../testing/hosts/fair-delivery.js"
import { onboardMerchant } from "../../testing/hosts/shared-store-fixtures.js"

/**
 * One merchant's receiver cannot stall everyone's webhooks: the built host on SQLite, merchant A's
 * receiver accepting connections and never answering with 200 of A's events queued, merchant B's 20
 * IPNs still arrive within 5 s of each payment, and A never holds more than 4 connections. Nor can
 * many: merchant C's 200 events spread over 50 such receivers leave merchant D's IPNs under 2 s, C
 * holding no more than its share of the host's senders.
 */
describe("fair webhook delivery on the built host", () => {
  const scratch = childHostSuite("mp-fair-delivery-")
  let host: Host
  let a: Demo
  let b: Demo
  let hung: HungReceiver
  let many: HungReceivers
  let adminToken: string

  beforeAll(async () => {
    const dataDir = join(scratch(), "host")
    host = await startHost(dataDir, { RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "error" })
    a = readDemo(dataDir)
    b = await onboardMerchant(host, readAdminToken(dataDir), "Merchant B", { fee_percent: "0", fee_fixed: "0" })
    hung = await startHungReceiver()
    many = await startHungReceivers(50)
    adminToken = readAdminToken(dataDir)
  }, 60_000)

  afterAll(async () => {
    await hung?.close()
    await many?.close()
  })

  it("B's slowest IPN arrives within 5 s while A's receiver hangs with 200 events queued", async () => {
    const outcome = await runFairnessScenario([host], a, b, [hung])
    expect(outcome.latenciesMs.at(-1), `B's IPN latencies (ms): ${outcome.latenciesMs.join(", ")}`).toBeLessThanOrEqual(5_000)
    expect(outcome.hungMostOpen).toBeLessThanOrEqual(4)
    expect(outcome.hungMostOpen).toBeGreaterThan(0)
  }, 120_000)

  it("D's slowest IPN arrives within 2 s while C's 50 receivers hang with 200 events queued", async () => {
    const fees = { fee_percent: "0", fee_fixed: "0" }
    const c = await onboardMerchant(host, adminToken, "Merchant C", fees)
    const d = await onboardMerchant(host, adminToken, "Merchant D", fees)
    const outcome = await runFairnessScenario([host], c, d, many.receivers)
    expect(outcome.latenciesMs.at(-1), `D's IPN latencies (ms): ${outcome.latenciesMs.join(", ")}`).toBeLessThan(2_000)
    expect(outcome.hungMostOpen).toBeLessThanOrEqual(4)
    // C's share of the fast lane's 32 senders (8) and of the slow lane's 8 (2).
    expect(many.mostOpenTogether()).toBeLessThanOrEqual(10)
    expect(many.mostOpenTogether()).toBeGreaterThan(0)
  }, 120_000)
})
