import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { onThrowawayPostgres } from "../../conformance/support/on-throwaway-postgres.js"
import { ensureBuilt } from "../../testing/hosts/build.js"
import {
  currentReceiverUrl, type Host, killSurvivors, received, resetReceiver, startHost, startReceiver, stopAll, stopReceiver, waitFor
} from "../../testing/hosts/child-hosts.js"
import { hmacHex, merchantCall } from "../../testing/hosts/demo-fixtures.js"
import {
  adminCall, advanceClocks, type Database, expectNoEventTwice, migrateOnce, onboardMerchant, type OnboardedMerchant, openDatabase,
  outboxDrained, receivedEvents
} from "../../testing/hosts/shared-store-fixtures.js"

const ADMIN_TOKEN = "two-hosts-admin-token"
const BASE_URL = "https://payments.example"
const ATOMS = 100_000_000n // stored amounts are 10^-8 units

/**
 * Two built standalone hosts on one PostgreSQL database, as docs/deployment.md runs them behind a load
 * balancer: what one host starts, the other may finish, and nothing happens twice. The shared rate limit
 * is shown by shared-rate-limit.postgres.test.ts. Both hosts run CLOCK=manual from one CLOCK_START and
 * are always advanced together, so they tell the same business time.
 */
onThrowawayPostgres("two built hosts on one postgres", (databaseUrl) => {
  describe("two built standalone hosts on one postgres database", () => {
    let hosts: ReadonlyArray<Host> = []
    let database: Database
    let shop: OnboardedMerchant
    let scratch = ""
    const both = () => hosts as readonly [Host, Host]

    beforeAll(async () => {
      process.on("exit", killSurvivors)
      await ensureBuilt()
      await startReceiver()
      resetReceiver([])
      scratch = mkdtempSync(join(tmpdir(), "mp-two-hosts-"))
      // Migrated once first (docs/deployment.md): then both start at the same moment.
      await migrateOnce(databaseUrl())
      const shared = {
        DATABASE_URL: databaseUrl(), MASTER_KEY: "cd".repeat(32), ADMIN_TOKEN, BASE_URL, DEMO: "false",
        CLOCK: "manual", CLOCK_START: "2030-05-01T12:00:00Z", CHECKOUT_LIFETIME_MINUTES: "1",
        RATE_LIMIT_PER_MINUTE: "1000000", WEBHOOK_POLL_INTERVAL_MS: "50", LOG_LEVEL: "warn"
      }
      // SCHEDULER may differ between hosts: B leaves the minute loop to A.
      hosts = await Promise.all([startHost(join(scratch, "a"), shared), startHost(join(scratch, "b"), { ...shared, SCHEDULER: "off" })])
      database = openDatabase(databaseUrl())
      const gateway = await adminCall(hosts[0]!, ADMIN_TOKEN, "POST", "/gateways", { plugin: "sandbox", name: "Sandbox card", currency_code: "USD", method: "sandbox" })
      expect(gateway.status, gateway.text).toBe(201)
      shop = await onboardMerchant(hosts[1]!, ADMIN_TOKEN, "Two-host shop", { fee_percent: "2.9", fee_fixed: "0.30" })
    }, 180_000)

    afterAll(async () => {
      await stopAll()
      process.off("exit", killSurvivors)
      await stopReceiver()
      await database?.close()
      if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
    }, 30_000)

    const initiate = async (host: Host, refTrx: string, amount = 100) => {
      const made = await merchantCall(host, shop, "POST", "/api/v1/initiate-payment", {
        payment_amount: amount, currency_code: "USD", ref_trx: refTrx, success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel", ipn_url: `${currentReceiverUrl()}/ipn`
      })
      expect(made.status, made.text).toBe(200)
      // Links name the load balancer's address, whichever host made them.
      expect(made.json.payment_url.startsWith(`${BASE_URL}/`)).toBe(true)
      return made.json.info.trx_id as string
    }
    const simulate = async (host: Host, merchant: OnboardedMerchant, trxId: string) => {
      const paid = await merchantCall(host, merchant, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect([paid.status, paid.json?.status], paid.text).toEqual([200, "success"])
    }
    const drained = () => waitFor("every pending webhook to be delivered", 30_000, () => outboxDrained(database), 100)
    /**
     * Leases are on real time, so the clocks move whenever a case says, sends in flight or not: no
     * event may then arrive twice (expectNoEventTwice). Before leases left business time, moving the
     * clocks a day mid-send had the other host send 2-4 events again.
     */
    const advanceBoth = (seconds: number) => advanceClocks(hosts, ADMIN_TOKEN, seconds)

    it("webhooks: 20 payments made on one host and paid on the other; each event received exactly once", async () => {
      const [a, b] = both()
      const trxIds = await Promise.all(Array.from({ length: 20 }, async (_, i) => {
        const [starter, payer] = i % 2 === 0 ? [a, b] : [b, a]
        const trxId = await initiate(starter, `hook-${i}`)
        await simulate(payer, shop, trxId)
        return trxId
      }))
      await drained()

      const completions = receivedEvents().filter((event) => event.body["event"] === "payment.completed" && trxIds.includes(event.body["data"].trx_id))
      expect(completions).toHaveLength(20)
      expect(new Set(completions.map((event) => event.body["data"].trx_id)).size).toBe(20)
      const ids = new Set(completions.map((event) => event.eventId))
      for (const request of received.filter((request) => ids.has(String(request.headers["x-event-id"])))) {
        expect(request.headers["x-signature"]).toBe(hmacHex(shop.webhook_secret, request.rawBody))
      }
      expectNoEventTwice()
      // One attempt per delivery: no host sent a row another host had claimed.
      const attempts = await database.rows(
        `SELECT d.id, d.status, COUNT(a.id) AS attempts FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
         WHERE d.event = 'payment.completed' GROUP BY d.id, d.status`)
      expect(attempts).toHaveLength(20)
      expect(attempts.every((row) => row["status"] === "delivered" && Number(row["attempts"]) === 1)).toBe(true)
    }, 60_000)

    it("scheduled work: subscriptions due ticked by both hosts at once get exactly one invoice per period", async () => {
      const [a, b] = both()
      const ids = await Promise.all(Array.from({ length: 10 }, async (_, i) => {
        const [creator, payer] = i % 2 === 0 ? [a, b] : [b, a]
        const made = await merchantCall(creator, shop, "POST", "/api/v1/subscriptions", {
          external_reference: `sub-${i}`, billing_cycle: "daily", payment_amount: "5.00", currency_code: "USD",
          customer_email: "payer@example.com", success_redirect: "https://shop.example/ok",
          cancel_redirect: "https://shop.example/cancel", ipn_url: `${currentReceiverUrl()}/ipn`
        })
        expect(made.status, made.text).toBe(201)
        await simulate(payer, shop, made.json.data.latest_invoice.trx_id)
        return made.json.data.id as string
      }))
      await advanceBoth(86_400 + 1)

      // Both hosts' admin runs at once, round after round, beside A's own minute loop.
      let processed = 0
      for (let round = 0; round < 6; round++) {
        const runs = await Promise.all(hosts.map((host) => adminCall(host, ADMIN_TOKEN, "POST", "/scheduler/run")))
        for (const run of runs) expect([200, 409], run.text).toContain(run.status)
        processed += runs.reduce((sum, run) => sum + (run.status === 200 ? run.json.data.processed : 0), 0)
      }
      expect(processed).toBeLessThanOrEqual(10)

      const invoices = await database.rows(
        `SELECT subscription_id, period_start, COUNT(*) AS n FROM subscription_invoices WHERE subscription_id = ANY($1)
         GROUP BY subscription_id, period_start`, [ids])
      expect(invoices).toHaveLength(20)
      expect(invoices.every((row) => Number(row["n"]) === 1)).toBe(true)
      const statuses = await database.rows("SELECT status FROM subscriptions WHERE id = ANY($1)", [ids])
      expect(statuses.map((row) => row["status"])).toEqual(Array(10).fill("past_due"))
      await drained()
      const pastDue = receivedEvents().filter((event) => event.body["event"] === "subscription.past_due")
      expect(pastDue.map((event) => event.body["data"].id).sort()).toEqual([...ids].sort())
      expectNoEventTwice()
    }, 60_000)

    it("scheduled work: expired checkouts, raced by both hosts' verify and expiry sweeps, fail once with one payment.expired", async () => {
      const [a, b] = both()
      const trxIds = await Promise.all(Array.from({ length: 10 }, (_, i) => initiate(i % 2 === 0 ? a : b, `expire-${i}`)))
      await advanceBoth(120)
      // Verify ends an expired checkout too: half of them are asked on both hosts at once, racing each
      // other (and any sweep); the other half are left to the sweeps, which each host runs every 15 s.
      const raced = await Promise.all(trxIds.slice(0, 5).flatMap((trxId) =>
        hosts.map((host) => merchantCall(host, shop, "GET", `/api/v1/verify-payment/${trxId}`))))
      expect(raced.map((reply) => reply.json.status)).toEqual(Array(10).fill("failed"))
      const expired = () => receivedEvents().filter((event) => event.body["event"] === "payment.expired" && trxIds.includes(event.body["data"].trx_id))
      const endedTrxIds = () => new Set(expired().map((event) => event.body["data"].trx_id)).size
      await waitFor("the sweeps to expire the other 5 checkouts", 40_000, () => (endedTrxIds() === 10 ? true : undefined), 100)
      await drained()
      expect(expired()).toHaveLength(10)
      expect(expired().every((event) => event.body["status"] === "expired")).toBe(true)
      for (const trxId of trxIds) {
        const seen = await Promise.all(hosts.map((host) => merchantCall(host, shop, "GET", `/api/v1/verify-payment/${trxId}`)))
        expect(seen.map((reply) => reply.json.status)).toEqual(["failed", "failed"])
      }
      expectNoEventTwice()
    }, 60_000)

    /** 12 concurrent refunds of `amount`, alternately through each host. */
    const refundRace = (merchant: OnboardedMerchant, trxId: string, amount: string) =>
      Promise.all(Array.from({ length: 12 }, (_, i) =>
        merchantCall(both()[i % 2]!, merchant, "POST", "/api/v1/refund-payment", { trx_id: trxId, amount, reason: `race ${i}` })))

    it("refund race: concurrent partial refunds through both hosts never over-refund nor overdraw the wallet", async () => {
      const [a, b] = both()
      const payer = await onboardMerchant(a, ADMIN_TOKEN, "Refund race shop", { fee_percent: "0", fee_fixed: "0" })
      const pay = async (refTrx: string) => {
        const made = await merchantCall(b, payer, "POST", "/api/v1/initiate-payment", {
          payment_amount: 100, currency_code: "USD", ref_trx: refTrx, success_redirect: "https://shop.example/ok",
          cancel_redirect: "https://shop.example/cancel", ipn_url: `${currentReceiverUrl()}/ipn`
        })
        expect(made.status, made.text).toBe(200)
        await simulate(a, payer, made.json.info.trx_id)
        return made.json.info.trx_id as string
      }
      const balance = async () => BigInt((await database.rows("SELECT balance FROM wallets WHERE id = $1", [payer.wallet_id]))[0]!["balance"])

      // The refundable balance binds: 12 x 30 on 100 (wallet 100): three pass, nine exceed what is left.
      const first = await pay("race-1")
      const capped = await refundRace(payer, first, "30")
      expect(capped.map((reply) => reply.status).sort()).toEqual([...Array(3).fill(200), ...Array(9).fill(422)])
      for (const refused of capped.filter((reply) => reply.status === 422)) {
        expect([refused.json.error_code, refused.json.message]).toEqual(["INVALID_AMOUNT", "Refund amount exceeds the refundable balance"])
      }
      expect(await balance()).toBe(10n * ATOMS)

      // The wallet binds: a second payment (wallet 110), 80 taken out, then 12 x 7 on 100: four pass, eight find the wallet short.
      const second = await pay("race-2")
      expect((await adminCall(a, ADMIN_TOKEN, "POST", `/wallets/${payer.wallet_id}/adjustments`, { amount: "-80", reason: "payout" })).status).toBe(201)
      const short = await refundRace(payer, second, "7")
      expect(short.map((reply) => reply.status).sort()).toEqual([...Array(4).fill(200), ...Array(8).fill(422)])
      for (const refused of short.filter((reply) => reply.status === 422)) {
        expect([refused.json.error_code, refused.json.message]).toEqual(["INSUFFICIENT_BALANCE", "Merchant wallet balance is insufficient to process this refund"])
      }
      expect(await balance()).toBe(2n * ATOMS)

      // Each refund that passed is one refund row and one ledger debit of its amount; the ledger sums to the balance.
      const payments = await database.rows("SELECT trx_id, amount, refunded_amount FROM payments WHERE trx_id = ANY($1) ORDER BY ref_trx", [[first, second]])
      expect(payments.map((row) => [BigInt(row["amount"]), BigInt(row["refunded_amount"])])).toEqual([[100n * ATOMS, 90n * ATOMS], [100n * ATOMS, 28n * ATOMS]])
      const debits = await database.rows(
        `SELECT r.refund_trx_id, r.amount, COUNT(l.id) AS entries, SUM(l.delta) AS delta FROM refunds r
         LEFT JOIN ledger_entries l ON l.reference = r.refund_trx_id AND l.kind = 'refund_debit' WHERE r.payment_trx_id = ANY($1)
         GROUP BY r.refund_trx_id, r.amount`, [[first, second]])
      expect(debits).toHaveLength(7)
      for (const row of debits) expect([Number(row["entries"]), BigInt(row["delta"])]).toEqual([1, -BigInt(row["amount"])])
      const [ledger] = await database.rows("SELECT SUM(delta) AS total, MIN(balance_after) AS lowest FROM ledger_entries WHERE wallet_id = $1", [payer.wallet_id])
      expect(BigInt(ledger!["total"])).toBe(await balance())
      expect(BigInt(ledger!["lowest"]) >= 0n).toBe(true)
    }, 60_000)
  })
})
