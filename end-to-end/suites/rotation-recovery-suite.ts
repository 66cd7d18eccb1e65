import { createHmac } from "node:crypto"
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantClient, type MerchantClient } from "../../client/index.js"
import type { StoreConfig } from "../../hosts/kit-layer.js"
import { createMerchantPayments, type IssuedCredentials, type MerchantPayments } from "../../hosts/embedding/index.js"
import { standardWebhookSecret, verifyWebhook } from "../../core/webhooks/verify-webhook.js"
import { until } from "./until.js"

const MASTER_KEY = "42".repeat(32)
const EVENTS = 200
// Far longer than the test runs, loaded or not: the overlap is ended through the admin API once the
// old set's work is done, never by waiting out the wall clock (the conformance suite covers expiry).
const OVERLAP_SECONDS = 3_600

interface Received {
  readonly at: number
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** The merchant's receiver: records every request, and answers 503 while it is down. */
const receiver = () => {
  const received: Array<Received> = []
  let down = true
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const status = down ? 503 : 200
      received.push({ at: Date.now(), status, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      response.writeHead(status).end()
    })
  })
  return {
    received,
    comeBack: () => void (down = false),
    start: () => new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`))),
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

const standardHeaders = (headers: IncomingHttpHeaders) => ({
  "webhook-id": String(headers["webhook-id"]),
  "webhook-timestamp": String(headers["webhook-timestamp"]),
  "webhook-signature": String(headers["webhook-signature"])
})

/** Whether the standardwebhooks package accepts this request under `secret`. */
const verifiesWith = (secret: string, request: Received): boolean => {
  try {
    new Webhook(standardWebhookSecret(secret)).verify(request.body, standardHeaders(request.headers))
    return true
  } catch {
    return false
  }
}

/**
 * A rotation without loss, end to end over HTTP: 200 events are in flight to a receiver that is down
 * when the merchant rotates its webhook secret with an overlap; every attempt verifies under the old or
 * the new secret while both live and under the new one only after; the receiver comes back, recovers,
 * and gets every event exactly once by its webhook-id. A delivery replayed later is refused.
 */
export const rotationRecoverySuite = (name: string, store: () => StoreConfig) =>
  describe(`rotation and recovery: ${name}`, () => {
    const endpoint = receiver()
    let payments: MerchantPayments
    let server: Server
    let origin = ""
    let ipnUrl = ""

    beforeAll(async () => {
      ipnUrl = `${await endpoint.start()}/hooks`
      server = createServer((request, response) => payments.handler(request, response))
      origin = await new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))
      payments = await createMerchantPayments({
        database: store(),
        masterKey: MASTER_KEY,
        baseUrl: origin,
        // Three quick attempts, so the events fail while the receiver is down within the test's time.
        // The receiver answers at once; the long timeout keeps a loaded machine's stall from turning an
        // answered attempt into a timeout and a retry, which the exact counts below would see.
        webhooks: { allowPrivateTargets: true, retryDelaysMillis: [50, 50], pollIntervalMillis: 20, timeoutMs: 30_000 },
        logging: false
      })
    }, 60_000)
    afterAll(async () => {
      await payments?.close()
      await new Promise((resolve) => server.close(resolve))
      await endpoint.stop()
    })

    const clientFor = (credentials: IssuedCredentials): MerchantClient =>
      createMerchantClient({
        baseUrl: origin,
        environment: "sandbox",
        merchantKey: credentials.merchant_key,
        apiKey: credentials.api_key,
        clientSecret: credentials.client_secret,
        webhookSecret: credentials.webhook_secret
      })

    it("delivers all 200 events once each after a rotation with the receiver down and a recover, verifying under the live secrets only", async () => {
      // 400 signed calls in a few seconds: far above the default per-minute limit.
      await payments.admin.settings.update({ rate_limit_per_minute: 1_000_000 })
      const merchant = await payments.admin.merchants.create({ name: "Rotating Shop", status: "approved" })
      await payments.admin.currencies.replace(merchant.id, ["USD"])
      await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
      const old = await payments.admin.credentials.issue(merchant.id, "sandbox")
      const oldClient = clientFor(old)
      const since = new Date(Date.now() - 1_000).toISOString()

      // 200 paid payments, each an event bound for the receiver, which is down.
      const pay = async (client: MerchantClient, i: number) => {
        const initiated = await client.initiatePayment({
          payment_amount: "10.00",
          currency_code: "USD",
          ref_trx: `rotation-${i}`,
          success_redirect: "https://shop.example/ok",
          cancel_redirect: "https://shop.example/cancel",
          ipn_url: ipnUrl
        })
        await client.simulatePayment(initiated.info.trx_id, "success")
        return initiated.info.trx_id
      }
      const trxIds: Array<string> = []
      const payMany = async (client: MerchantClient, from: number, to: number) => {
        for (let batch = from; batch < to; batch += 20) trxIds.push(...await Promise.all(Array.from({ length: Math.min(20, to - batch) }, (_, i) => pay(client, batch + i))))
      }
      // Rotate halfway, while the first hundred are being tried and the rest not yet queued; the
      // merchant's servers move to the new set while the old one still works.
      await payMany(oldClient, 0, EVENTS / 2)
      const fresh = await payments.admin.credentials.issue(merchant.id, "sandbox", { overlapSeconds: OVERLAP_SECONDS })
      expect(fresh.previous_valid_until).not.toBeNull()
      const newClient = clientFor(fresh)
      await Promise.all([payMany(oldClient, EVENTS / 2, EVENTS * 3 / 4), payMany(newClient, EVENTS * 3 / 4, EVENTS)])

      // Every event runs out of attempts against the receiver that is down.
      const allEvents = async () => {
        const events: Array<{ readonly id: string; readonly status: string; readonly object_id: string | null }> = []
        let cursor: string | undefined
        do {
          const page = await newClient.listEvents({ limit: 100, ...(cursor !== undefined ? { cursor } : {}) })
          events.push(...page.data)
          cursor = page.next_cursor ?? undefined
        } while (cursor !== undefined)
        return events
      }
      await until(async () => (await allEvents()).filter((e) => e.status === "failed").length === EVENTS, 60_000, "every event to fail")
      const events = await allEvents()
      expect(events.length).toBe(EVENTS)
      expect(new Set(events.map((e) => e.object_id))).toEqual(new Set(trxIds))
      const failedAttempts = endpoint.received.length
      expect(failedAttempts).toBe(EVENTS * 3)

      // Every attempt so far verifies under a live secret: the old one before the rotation, either during the overlap.
      const byId = (request: Received) => String(request.headers["webhook-id"])
      for (const request of endpoint.received) {
        const underOld = verifiesWith(old.webhook_secret, request)
        const underNew = verifiesWith(fresh.webhook_secret, request)
        expect(underOld || underNew, byId(request)).toBe(true)
        // Two signatures exactly when both secrets were live, and then each verifies.
        const signatures = String(request.headers["webhook-signature"]).split(" ")
        expect([underOld, underNew], byId(request)).toEqual(signatures.length === 2 ? [true, true] : [underOld, !underOld])
        // X-Signature, the contract's, is the secret current when the attempt was made.
        const current = underNew ? fresh.webhook_secret : old.webhook_secret
        expect(request.headers["x-signature"]).toBe(createHmac("sha256", current).update(request.body).digest("hex"))
      }
      // The rotation happened while events were in flight: some attempts carried both signatures.
      expect(endpoint.received.some((r) => String(r.headers["webhook-signature"]).split(" ").length === 2)).toBe(true)

      // The old set still opens the API until the overlap ends; then only the new one does.
      await expect(oldClient.siteInfo()).resolves.toBeDefined()
      expect(await payments.admin.credentials.endOverlap(merchant.id, "sandbox")).toEqual({ environment: "sandbox", destroyed: 1 })
      await expect(oldClient.siteInfo()).rejects.toMatchObject({ status: 401 })
      await expect(newClient.siteInfo()).resolves.toBeDefined()

      // The receiver comes back and recovers: each failed event is queued once.
      endpoint.comeBack()
      const recovered = await newClient.recoverEvents({ since })
      expect(recovered).toEqual({ queued: EVENTS, resumed_targets: 0 })
      expect(await newClient.recoverEvents({ since })).toEqual({ queued: 0, resumed_targets: 0 })
      const accepted = () => endpoint.received.filter((r) => r.status === 200)
      await until(() => new Set(accepted().map(byId)).size === EVENTS, 60_000, "every event to arrive")
      await until(async () => (await allEvents()).every((e) => e.status === "delivered"), 60_000, "every event to be delivered")

      // Deduplicating by webhook-id leaves exactly the 200, each the event its X-Event-Id names.
      const arrivals = accepted()
      expect(arrivals.length).toBe(EVENTS)
      expect(new Set(arrivals.map(byId))).toEqual(new Set(events.map((e) => e.id)))
      for (const request of arrivals) {
        expect(request.headers["x-event-id"]).toBe(byId(request))
        // After the overlap only the new secret verifies, in both forms.
        expect(verifiesWith(fresh.webhook_secret, request), byId(request)).toBe(true)
        expect(verifiesWith(old.webhook_secret, request), byId(request)).toBe(false)
        expect(String(request.headers["webhook-signature"]).split(" ").length).toBe(1)
        expect(request.headers["x-signature"]).toBe(createHmac("sha256", fresh.webhook_secret).update(request.body).digest("hex"))
      }

      // A captured delivery replayed after the tolerance is refused; within it, accepted.
      const captured = arrivals[0]!
      const sentAt = Number(captured.headers["webhook-timestamp"])
      const check = (nowSeconds: number) =>
        verifyWebhook({
          webhookSecret: fresh.webhook_secret,
          clientSecret: fresh.client_secret,
          rawBody: captured.body,
          // The Standard form alone: X-Signature has no timestamp to be stale.
          signature: undefined,
          standard: { id: byId(captured), timestamp: String(sentAt), signature: String(captured.headers["webhook-signature"]), nowSeconds },
          environmentHeader: String(captured.headers["x-environment"]),
          expectedEnvironment: "sandbox"
        })
      expect(check(sentAt + 60).valid).toBe(true)
      expect(check(sentAt + 301)).toEqual({ valid: false, reason: "stale_timestamp" })
      expect(() => new Webhook(standardWebhookSecret(fresh.webhook_secret)).verify(captured.body, {
        ...standardHeaders(captured.headers),
        "webhook-timestamp": String(sentAt - 301)
      })).toThrow()
    }, 180_000)
  })
