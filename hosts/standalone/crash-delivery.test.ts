import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import {
  withHostReports,
  type Host,
  currentReceiverUrl,
  crash,
  describeReceived,
  received,
  resetReceiver,
  sleep,
  startHost,
  waitFor
} from "../../testing/hosts/child-hosts.js"
import {
  adminGet,
  completedPayment,
  expectSignedCompletion,
  onlyDelivery,
  readAdminToken,
  readDemo
} from "../../testing/hosts/demo-fixtures.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"

/**
 * Crash safety of webhook delivery, end to end against the built standalone host in child processes:
 * a payment's event is committed with the payment, so SIGKILL (no shutdown hooks, no flush) loses
 * nothing: the next host on the same store delivers it, once, signed, with the same event id.
 *
 * Needs `npm run build` (run once in beforeAll) and loopback networking.
 */
describe("standalone host: webhooks survive SIGKILL", () => {
  const scratch = childHostSuite("mp-crash-delivery-")

  it("delivers, once and signed, a payment.completed event whose host was SIGKILLed right after the payment", async () => {
    resetReceiver([])
    const dataDir = join(scratch(), "completed")
    mkdirSync(dataDir)
    let hostA: Host | undefined
    let hostB: Host | undefined
    await withHostReports(() => [["A", hostA], ["B", hostB]], async () => {
      // Host A: its dispatcher's start-up pass runs, then it sleeps for 10 minutes.
      hostA = await startHost(dataDir, { WEBHOOK_POLL_INTERVAL_MS: "600000" })
      const demo = readDemo(dataDir)
      const token = readAdminToken(dataDir)
      const trxId = await completedPayment(hostA, demo, "crash-1")

      // The event is committed with the payment and not yet attempted.
      const queued = await onlyDelivery(hostA, token, demo.merchant_id)
      expect(queued).toMatchObject({ event: "payment.completed", status: "pending", attempts: 0, url: `${currentReceiverUrl()}/ipn` })

      const killed = await crash(hostA)
      expect(killed.signal).toBe("SIGKILL")
      expect(received, "host A sent the webhook before it was killed").toHaveLength(0)

      // Host B: same store, same master key; its dispatcher finds the event due.
      hostB = await startHost(dataDir, { WEBHOOK_POLL_INTERVAL_MS: "100" })
      await waitFor("host B to deliver the webhook", 15_000, () => (received.length >= 1 ? true : undefined))
      await sleep(1_500)
      expect(received, `delivered more than once: ${describeReceived()}`).toHaveLength(1)

      const delivered = received[0]!
      expectSignedCompletion(delivered, demo, trxId)
      expect(JSON.parse(delivered.text).data.ref_trx).toBe("crash-1")
      expect(delivered.headers["x-event-id"]).toBe(queued.id)

      const logged = await onlyDelivery(hostB, token, demo.merchant_id)
      expect(logged).toMatchObject({ id: queued.id, status: "delivered", attempts: 1, last_status_code: 200 })
    })
  }, 90_000)

  it("a webhook retried after a failure survives a kill between attempts", async () => {
    const retryDelayMs = 1_500
    resetReceiver([500])
    const dataDir = join(scratch(), "retried")
    mkdirSync(dataDir)
    const webhookEnv = { WEBHOOK_POLL_INTERVAL_MS: "100", WEBHOOK_RETRY_DELAYS_MS: String(retryDelayMs) }
    let hostA: Host | undefined
    let hostB: Host | undefined
    await withHostReports(() => [["A", hostA], ["B", hostB]], async () => {
      hostA = await startHost(dataDir, webhookEnv)
      const demo = readDemo(dataDir)
      const token = readAdminToken(dataDir)
      const trxId = await completedPayment(hostA, demo, "crash-2")

      // The first attempt is answered 500 ...
      await waitFor("host A's first attempt", 15_000, () => (received.length >= 1 ? true : undefined))
      // ... and recorded: the lease released, the retry scheduled. Kill it now, before the retry is due.
      const first = await waitFor("host A to record the failed attempt", 10_000, async () => {
        const delivery = await onlyDelivery(hostA!, token, demo.merchant_id)
        return delivery.attempts === 1 ? delivery : undefined
      }, 20)
      await crash(hostA)
      const killedAt = Date.now()
      expect(first).toMatchObject({ status: "pending", attempts: 1, last_status_code: 500 })
      expect(first.next_attempt_at).not.toBeNull()
      expect(
        received,
        `host A made its retry before it was killed (${killedAt - received[0]!.at} ms after the first attempt): the retry delay is too short for this machine`
      ).toHaveLength(1)

      hostB = await startHost(dataDir, webhookEnv)
      await waitFor("host B's retry", 15_000, () => (received.length >= 2 ? true : undefined))
      await sleep(1_500)
      expect(received, `unexpected attempts: ${describeReceived()}`).toHaveLength(2)

      const [failed, retried] = [received[0]!, received[1]!]
      expect([failed.answered, retried.answered]).toEqual([500, 200])
      expectSignedCompletion(failed, demo, trxId)
      expectSignedCompletion(retried, demo, trxId)
      expect(retried.headers["x-event-id"]).toBe(failed.headers["x-event-id"])
      expect(retried.headers["x-event-id"]).toBe(first.id)
      expect(retried.rawBody.equals(failed.rawBody)).toBe(true)
      // The retry waited for its due time, though another host made it.
      expect(retried.at - failed.at).toBeGreaterThanOrEqual(retryDelayMs - 50)

      const logged = await onlyDelivery(hostB, token, demo.merchant_id)
      expect(logged).toMatchObject({ id: first.id, status: "delivered", attempts: 2, last_status_code: 200 })
      const detail = await adminGet(hostB, token, `/webhook-deliveries/${encodeURIComponent(first.id)}`)
      expect(detail.status, detail.text).toBe(200)
      expect(detail.json.attempt_log.map((a: { attempt: number; status_code: number | null }) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 200]
      ])
    })
  }, 90_000)
})
