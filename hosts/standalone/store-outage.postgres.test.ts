import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { currentReceiverUrl, type Host, received, sleep, startHost, waitFor } from "../../testing/hosts/child-hosts.js"
import { merchantCall } from "../../testing/hosts/demo-fixtures.js"
import { expectOutageAnswer, type Recorded, send, startLoad } from "../../testing/hosts/outage-load.js"
import { createPrivatePostgres, postgresBinDir, type PrivatePostgres } from "../../testing/hosts/private-postgres.js"
import { adminCall, type Database, onboardMerchant, type OnboardedMerchant, openDatabase } from "../../testing/hosts/shared-store-fixtures.js"

const ADMIN_TOKEN = "outage-admin-token"
const binDir = postgresBinDir()

/**
 * The built standalone host on a PostgreSQL cluster of the test's own, which the test restarts, cuts
 * off and stops while 10 clients send signed initiate-payment (and pay every third): every answer is
 * a 200 or a 503 with Retry-After in the 7.3 body, the host recovers by itself, and nothing is half
 * written. Needs the PostgreSQL server binaries (initdb, pg_ctl), not TEST_DATABASE_URL.
 */
if (binDir === undefined) {
  console.warn("store outage on postgres SKIPPED: no PostgreSQL server binaries under /usr/lib/postgresql")
  describe.skip("store outage on postgres (no PostgreSQL server binaries)", () => {
    it("runs only where initdb and pg_ctl are installed", () => {})
  })
} else {
  describe("store outage on postgres: the built host answers 503 with Retry-After and recovers", () => {
    const scratch = childHostSuite("mp-store-outage-")
    let pg: PrivatePostgres | undefined
    let host: Host
    let shop: OnboardedMerchant
    let log = ""

    beforeAll(async () => {
      pg = await createPrivatePostgres(binDir)
      host = await startHost(join(scratch(), "host"), {
        DATABASE_URL: pg.url, MASTER_KEY: "ab".repeat(32), ADMIN_TOKEN, BASE_URL: "https://payments.example", DEMO: "false",
        RATE_LIMIT_PER_MINUTE: "1000000", WEBHOOK_POLL_INTERVAL_MS: "50", LOG_LEVEL: "warn"
      })
      // Everything it logs from now on (Host.output keeps only the tail).
      for (const stream of [host.child.stdout, host.child.stderr]) stream?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")))
      const gateway = await adminCall(host, ADMIN_TOKEN, "POST", "/gateways", { plugin: "sandbox", name: "Sandbox card", currency_code: "USD", method: "sandbox" })
      expect(gateway.status, gateway.text).toBe(201)
      shop = await onboardMerchant(host, ADMIN_TOKEN, "Outage shop", { fee_percent: "0", fee_fixed: "0" })
    }, 120_000)

    afterAll(async () => {
      await pg?.remove()
    }, 60_000)

    /** Ends every session the host holds, in the middle of whatever it was running. */
    const terminateHostSessions = async () => {
      const admin = openDatabase(pg!.url)
      try {
        await admin.rows("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'merchant-payments'")
      } finally {
        await admin.close()
      }
    }

    it("a restart, lost connections and a stopped server under 10 clients: only 200s and 503s, then 200s again", async () => {
      const loadStarted = Date.now()
      const load = startLoad(host, shop, 10, `${currentReceiverUrl()}/ipn`)
      try {
        await sleep(1_000)
        load.enter("restart")
        await pg!.restart()
        await sleep(1_000)
        load.enter("terminated")
        for (let round = 0; round < 3; round++) {
          await terminateHostSessions()
          await sleep(300)
        }
        await sleep(700)
        load.enter("stopped")
        await pg!.stop()
        await sleep(1_500)
        load.enter("started")
        await pg!.start()
        // Recovered by itself: the pool reconnects, no restart of the host.
        await waitFor("20 initiates in a row answered 200 after the start", 30_000, () => {
          const last = load.calls.filter((call) => call.phase === "started" && call.call === "initiate").slice(-20)
          return last.length === 20 && last.every((call) => call.status === 200) ? true : undefined
        }, 100)
      } finally {
        await load.finish()
      }

      const statuses = (calls: ReadonlyArray<Recorded>) => [...new Set(calls.map((call) => call.status))].sort()
      const unexpected = load.calls.filter((call) => call.status !== 200 && call.status !== 503)
      // What the host said about anything but the expected outage (its WARN lines) explains a failure here.
      if (unexpected.length > 0) console.error(log.split("\n").filter((line) => !line.includes("WARN")).slice(0, 60).join("\n"))
      expect(unexpected.map((call) => `${call.phase} ${call.call} ${call.status} ${call.text}`)).toEqual([])
      const outages = load.calls.filter((call) => call.status === 503)
      for (const call of outages) expectOutageAnswer(call)
      // The outage was really met: a stopped server refuses every call that reaches the store, and
      // sessions ended under running queries fail those calls.
      expect(statuses(load.calls.filter((call) => call.phase === "stopped"))).toContain(503)
      expect(statuses(load.calls.filter((call) => call.phase === "terminated"))).toContain(503)
      console.info(`store outage: ${load.calls.length} calls; 503 by phase ${JSON.stringify(
        Object.fromEntries(["before", "restart", "terminated", "stopped", "started"].map((phase) =>
          [phase, `${outages.filter((call) => call.phase === phase).length}/${load.calls.filter((call) => call.phase === phase).length}`])))}`)

      // The host did not die of it, and its background jobs said so and went on.
      expect(host.child.exitCode, host.output()).toBeNull()
      expect(log).toMatch(/WARN {2}webhook dispatch pass failed; retrying/)
      expect(log).toMatch(/WARN {2}store unavailable; answered 503: .*ECONNREFUSED/)
      expect(log).not.toMatch(/ERROR/)
      // Thousands of identical warnings are one line each per 10 s, and a line with their count
      // (said once the 10 s since the first have passed).
      await waitFor("a line counting repeated warnings", 15_000, () => (/\(repeated (once more|\d+ times) in the last \d+ s\)/.test(log) ? true : undefined), 200)
      const warnings = log.split("\n").filter((line) => / WARN {2}/.test(line))
      const shown = warnings.join("\n")
      const sentences = warnings.map((line) => line.replace(/^\S+ WARN {2}/, "").replace(/ req=\S+$/, ""))
      expect(sentences.filter((sentence) => /\(repeated (once more|\d+ times) in the last \d+ s\)$/.test(sentence)).length, shown).toBeGreaterThan(0)
      // Each refusal's words written in full at most once per 10 s (a quiet 10 s makes the next one news).
      const refusals = new Map<string, number>()
      for (const sentence of sentences.filter((sentence) => /^store unavailable; answered 503: .*\)$/.test(sentence))) refusals.set(sentence, (refusals.get(sentence) ?? 0) + 1)
      const mostPerSentence = 1 + Math.ceil((Date.now() - loadStarted) / 10_000)
      expect([...refusals].filter(([, times]) => times > mostPerSentence), `at most ${mostPerSentence} each:\n${shown}`).toEqual([])
      expect(warnings.length, shown).toBeLessThan(100)
      console.info(`store outage: ${warnings.length} warning lines`)

      // The client's retry of a 503 (the identical request, the same Idempotency-Key) now goes through.
      const retried: Array<Recorded> = []
      for (const call of outages.filter((call) => call.call === "initiate").slice(0, 10)) {
        const again = await send(host, shop, "/api/v1/initiate-payment", call.sent!.body, call.sent!.key)
        expect(again.status, again.text).toBe(200)
        retried.push({ ...call, ...again, trxId: String(again.json.info.trx_id) })
      }
      expect(retried.length).toBeGreaterThan(0)

      // Every payment a 200 announced verifies, through the host (10 at a time).
      const made = [...load.calls, ...retried].filter((call) => call.call === "initiate" && call.status === 200).map((call) => call.trxId!)
      for (let i = 0; i < made.length; i += 10) {
        const verified = await Promise.all(made.slice(i, i + 10).map((trxId) => merchantCall(host, shop, "GET", `/api/v1/verify-payment/${trxId}`)))
        expect(verified.filter((reply) => reply.status !== 200).map((reply) => reply.text)).toEqual([])
      }
      const database: Database = openDatabase(pg!.url)
      try {
        await expectNothingHalfWritten(database, shop, [...load.calls, ...retried])
      } finally {
        await database.close()
      }
      // The dispatcher went on: a payment paid now has its IPN delivered. (A delivery claimed just as
      // the store went away waits out its 2-minute lease first: at least once, never twice at once.)
      const fresh = await send(host, shop, "/api/v1/initiate-payment", {
        payment_amount: 10, currency_code: "USD", ref_trx: "after-the-outage", success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel", ipn_url: `${currentReceiverUrl()}/ipn`
      }, "after-the-outage")
      expect(fresh.status, fresh.text).toBe(200)
      const trxId = String(fresh.json.info.trx_id)
      const paid = await send(host, shop, `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" }, "pay-after-the-outage")
      expect(paid.status, paid.text).toBe(200)
      await waitFor("the IPN of a payment paid after the outage", 30_000, () =>
        (received.some((request) => JSON.parse(request.text)?.data?.trx_id === trxId) ? true : undefined), 100)
    }, 180_000)

    it("answers /readyz 200, then 503 with the reason within 5 s of PostgreSQL stopping, and 200 again once it is back, without a restart", async () => {
      const readiness = async () => {
        const response = await fetch(`${host.url}/readyz`)
        return { status: response.status, body: await response.json() as { readonly status: string; readonly reason?: string } }
      }
      expect(await readiness()).toEqual({ status: 200, body: { status: "ready" } })
      await pg!.stop()
      const stopped = Date.now()
      const down = await waitFor("/readyz to answer 503", 10_000, async () => {
        const answer = await readiness()
        return answer.status === 503 ? answer : undefined
      })
      expect(Date.now() - stopped).toBeLessThan(5_000)
      expect(down.body.status).toBe("not_ready")
      expect(down.body.reason).toMatch(/store/)
      await pg!.start()
      await waitFor("/readyz to answer 200 again", 30_000, async () => ((await readiness()).status === 200 ? true : undefined), 100)
      expect(host.child.exitCode, host.output()).toBeNull()
    }, 60_000)
  })
}

/**
 * What the store holds agrees with what the clients were told: each initiate answered 200 made one
 * payment holding its reference and verifies; no 503 left a payment behind; each wallet's balance is
 * its ledger's sum and the sum of its completed payments (fees are 0).
 */
const expectNothingHalfWritten = async (database: Database, shop: OnboardedMerchant, calls: ReadonlyArray<Recorded>) => {
  const made = calls.filter((call) => call.call === "initiate" && call.status === 200).map((call) => call.trxId!)
  const rows = await database.rows("SELECT p.trx_id, p.status, r.trx_id AS held_by FROM payments p LEFT JOIN payment_references r ON r.merchant_id = p.merchant_id AND r.environment = p.environment AND r.ref_trx = p.ref_trx WHERE p.merchant_id = $1", [shop.merchant_id])
  expect(rows.map((row) => row["trx_id"]).sort()).toEqual([...made].sort())
  expect(rows.filter((row) => row["held_by"] !== row["trx_id"]).map((row) => row["trx_id"])).toEqual([])
  const paid = new Set(calls.filter((call) => call.call === "simulate" && call.status === 200).map((call) => call.trxId))
  expect(rows.filter((row) => row["status"] === "success").map((row) => row["trx_id"]).sort()).toEqual([...paid].sort())

  // Each payment paid with a 200 has exactly one completion webhook queued (written with it).
  const deliveries = await database.rows("SELECT body FROM webhook_deliveries WHERE merchant_id = $1 AND event = 'payment.completed'", [shop.merchant_id])
  expect(deliveries.map((row) => JSON.parse(String(row["body"])).data.trx_id).sort()).toEqual([...paid].sort())

  const [wallet] = await database.rows(
    `SELECT w.balance, (SELECT COALESCE(SUM(delta), 0) FROM ledger_entries l WHERE l.wallet_id = w.id) AS ledger,
       (SELECT COALESCE(SUM(net), 0) FROM payments p WHERE p.merchant_id = w.merchant_id AND p.status = 'success') AS earned
     FROM wallets w WHERE w.id = $1`, [shop.wallet_id])
  expect([String(wallet!["balance"]), String(wallet!["ledger"])]).toEqual([String(wallet!["earned"]), String(wallet!["earned"])])
  expect(BigInt(wallet!["earned"])).toBe(BigInt(paid.size) * 10n * 100_000_000n)
}
