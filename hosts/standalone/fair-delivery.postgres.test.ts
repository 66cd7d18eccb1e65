import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { onThrowawayPostgres } from "../../conformance/support/on-throwaway-postgres.js"
import { ensureBuilt } from "../../testing/hosts/build.js"
import { type Host, killSurvivors, startHost, startReceiver, stopAll, stopReceiver } from "../../testing/hosts/child-hosts.js"
import { type HungReceiver, type HungReceivers, runFairnessScenario, startHungReceiver, startHungReceivers } from "../../testing/hosts/fair-delivery.js"
import { adminCall, migrateOnce, onboardMerchant, type OnboardedMerchant } from "../../testing/hosts/shared-store-fixtures.js"

const ADMIN_TOKEN = "fair-delivery-admin-token"

/**
 * The fair-delivery scenario across two built hosts on one PostgreSQL database: payments go to both
 * hosts in turn and both dispatch. The cap on attempts in flight to one target holds across hosts
 * (A's hung receiver never holds more than 4 connections), and B's IPNs still arrive within 5 s.
 * With merchant C's events spread over 50 hung receivers, merchant D's arrive within 2 s, C holding
 * no more than its share of each host's senders.
 */
onThrowawayPostgres("fair delivery across two hosts", (databaseUrl) => {
  describe("fair webhook delivery across two built hosts on one postgres database", () => {
    let hosts: ReadonlyArray<Host> = []
    let a: OnboardedMerchant
    let b: OnboardedMerchant
    let hung: HungReceiver
    let many: HungReceivers
    let scratch = ""

    beforeAll(async () => {
      process.on("exit", killSurvivors)
      await ensureBuilt()
      await startReceiver()
      scratch = mkdtempSync(join(tmpdir(), "mp-fair-pg-"))
      await migrateOnce(databaseUrl())
      const shared = {
        DATABASE_URL: databaseUrl(), MASTER_KEY: "ef".repeat(32), ADMIN_TOKEN, BASE_URL: "https://payments.example", DEMO: "false",
        RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "error"
      }
      hosts = await Promise.all([startHost(join(scratch, "a"), shared), startHost(join(scratch, "b"), shared)])
      const gateway = await adminCall(hosts[0]!, ADMIN_TOKEN, "POST", "/gateways", { plugin: "sandbox", name: "Sandbox card", currency_code: "USD", method: "sandbox" })
      expect(gateway.status, gateway.text).toBe(201)
      a = await onboardMerchant(hosts[0]!, ADMIN_TOKEN, "Merchant A", { fee_percent: "0", fee_fixed: "0" })
      b = await onboardMerchant(hosts[1]!, ADMIN_TOKEN, "Merchant B", { fee_percent: "0", fee_fixed: "0" })
      hung = await startHungReceiver()
      many = await startHungReceivers(50)
    }, 180_000)

    afterAll(async () => {
      await stopAll()
      process.off("exit", killSurvivors)
      await stopReceiver()
      await hung?.close()
      await many?.close()
      if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
    }, 30_000)

    it("B's slowest IPN arrives within 5 s while A's receiver hangs with 200 events queued, and A holds at most 4 connections across both hosts", async () => {
      const outcome = await runFairnessScenario(hosts, a, b, [hung])
      expect(outcome.latenciesMs.at(-1), `B's IPN latencies (ms): ${outcome.latenciesMs.join(", ")}`).toBeLessThanOrEqual(5_000)
      expect(outcome.hungMostOpen).toBeLessThanOrEqual(4)
      expect(outcome.hungMostOpen).toBeGreaterThan(0)
    }, 120_000)

    it("D's slowest IPN arrives within 2 s while C's 50 receivers hang with 200 events queued, C within its share on each host", async () => {
      const fees = { fee_percent: "0", fee_fixed: "0" }
      const c = await onboardMerchant(hosts[0]!, ADMIN_TOKEN, "Merchant C", fees)
      const d = await onboardMerchant(hosts[1]!, ADMIN_TOKEN, "Merchant D", fees)
      const outcome = await runFairnessScenario(hosts, c, d, many.receivers)
      expect(outcome.latenciesMs.at(-1), `D's IPN latencies (ms): ${outcome.latenciesMs.join(", ")}`).toBeLessThan(2_000)
      expect(outcome.hungMostOpen).toBeLessThanOrEqual(4)
      // On each of the two hosts, C's share of the fast lane's 32 senders (8) and of the slow lane's 8 (2).
      expect(many.mostOpenTogether()).toBeLessThanOrEqual(20)
      expect(many.mostOpenTogether()).toBeGreaterThan(0)
    }, 120_000)
  })
})
