import { createHmac } from "node:crypto"
import { createServer, type IncomingMessage, type Server } from "node:http"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthenticatedMerchant } from "../../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import { fromMillis } from "../../core/shared/instant.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import type { WebhookDelivery } from "../../core/webhooks/delivery.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"
import { until } from "./until.js"

interface Received {
  readonly path: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

/**
 * Long enough that a receiver answering at once is never timed out by a stalled event loop on a
 * loaded machine (the exact attempt outcomes below would see it), short enough to wait out for the
 * receiver that never answers.
 */
const SEND_TIMEOUT_MS = 5_000

/** A merchant's webhook endpoint on loopback; each path answers as its script says. */
const receiver = (answer: (path: string, count: number) => { status: number; location?: string } | "hang") => {
  const received: Array<Received> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const path = request.url ?? "/"
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
      const reply = answer(path, received.filter((r) => r.path === path).length)
      if (reply === "hang") return
      response.writeHead(reply.status, reply.location === undefined ? {} : { location: reply.location })
      response.end("ok")
    })
  })
  return {
    received,
    start: () => new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`))),
    stop: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  }
}

/** Real delivery through the outbox, dispatcher and sender, to a loopback receiver. */
export const webhookDeliverySuite = (name: string, store: () => StoreConfig) =>
  describe(`webhook delivery: ${name}`, () => {
    const manual = makeManualClock(Date.now())
    const endpoint = receiver((path, count) => {
      if (path.startsWith("/flaky")) return { status: count < 3 ? 500 : 200 }
      if (path.startsWith("/down")) return { status: 503 }
      if (path.startsWith("/moved")) return { status: 302, location: "/ok" }
      if (path.startsWith("/slow")) return "hang"
      return { status: 204 }
    })
    let base = ""
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let caller: AuthenticatedMerchant
    // Everything runs on the manual clock, as a host's requests do: due dates and retries agree.
    const run = <A, E>(effect: Effect.Effect<A, E, any>) =>
      runtime.runPromise(Effect.withClock(effect as Effect.Effect<A, E, never>, manual.clock))

    beforeAll(async () => {
      base = await endpoint.start()
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        checkoutLifetimeSeconds: 600,
        backgroundJobs: true,
        webhooks: { timeoutMs: SEND_TIMEOUT_MS, retryDelaysMillis: [1_000, 2_000], allowPrivateTargets: true, pollIntervalMillis: 50 },
        expirySweepIntervalMillis: 50,
        manualClock: manual
      })))
      caller = await run(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: "Hooks", status: "approved" })
        yield* replaceCurrencies(merchant.id, ["USD"])
        yield* createWallet(merchant.id, "USD", "sandbox")
        const issued = yield* issueCredentials(merchant.id, "sandbox")
        return { merchant, environment: "sandbox", clientSecret: issued.clientSecret, webhookSecret: issued.webhookSecret } as AuthenticatedMerchant
      }))
    })
    afterAll(async () => {
      await runtime.dispose()
      await endpoint.stop()
    })

    let sequence = 0
    const pay = async (path: string, outcome: "Succeeded" | "none" = "Succeeded") => {
      const session = await run(initiatePayment(caller, {
        amount: { kind: "json-number", text: "100" },
        currency: "USD",
        refTrx: `hook-${++sequence}-${path.slice(1)}`,
        successRedirect: "https://shop.example/ok",
        cancelRedirect: "https://shop.example/c",
        ipnUrl: `${base}${path}`,
        description: null,
        customerName: null,
        customerEmail: null,
        keywords: []
      }))
      if (outcome === "Succeeded") await run(finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null }))
      return session.payment.trxId
    }
    const deliveryFor = (trxId: string) =>
      run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ merchantId: caller.merchant.id, limit: 200 }))).then((list) =>
        list.find((delivery) => delivery.body.includes(trxId)) as WebhookDelivery)
    const attemptsOf = (id: string) => run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.attempts(id)))
    /** Business time for retry delays: the manual clock moves only when told to. */
    const advance = (seconds: number) => run(manual.advance(seconds))

    it("delivers a completed payment once, signed with the environment's webhook secret over the exact stored bytes", async () => {
      const trxId = await pay("/ok")
      await until(() => endpoint.received.some((r) => r.body.includes(trxId)))
      const [hit] = endpoint.received.filter((r) => r.body.includes(trxId))
      const delivery = await deliveryFor(trxId)
      expect(hit!.body).toBe(delivery.body)
      expect(hit!.headers["x-signature"]).toBe(createHmac("sha256", caller.webhookSecret).update(hit!.body).digest("hex"))
      expect([hit!.headers["x-environment"], hit!.headers["x-event-id"], hit!.headers["content-type"]]).toEqual(["sandbox", delivery.id, "application/json"])
      await until(async () => (await deliveryFor(trxId)).status === "delivered")
      expect((await deliveryFor(trxId)).attempts).toBe(1)
    })

    it("retries a failing receiver after the configured delays and stops at success, recording each attempt", async () => {
      const trxId = await pay("/flaky")
      // Advance only once the attempt is recorded: its retry is scheduled from the time it was recorded.
      const recorded = (count: number) => until(async () => (await deliveryFor(trxId))?.attempts === count)
      await recorded(1)
      // Not due again until business time passes the first delay.
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(endpoint.received.filter((r) => r.body.includes(trxId)).length).toBe(1)
      await advance(1)
      await recorded(2)
      await advance(2)
      await until(async () => (await deliveryFor(trxId)).status === "delivered")
      const delivery = await deliveryFor(trxId)
      expect((await attemptsOf(delivery.id)).map((a) => [a.attempt, a.statusCode])).toEqual([[1, 500], [2, 500], [3, 200]])
      const ids = new Set(endpoint.received.filter((r) => r.body.includes(trxId)).map((r) => r.headers["x-event-id"]))
      expect(ids.size).toBe(1)
    })

    it("keeps a lease on the wall clock: business time moved an hour mid-send does not send the event twice", async () => {
      const trxId = await pay("/slow-lease")
      // The attempt is in flight (the receiver holds it until the send timeout)...
      await until(() => endpoint.received.some((r) => r.body.includes(trxId)))
      // ...when the manual clock jumps far past the 120 s lease; passes run every 50 ms meanwhile.
      await advance(3_600)
      await until(async () => (await deliveryFor(trxId)).attempts === 1, SEND_TIMEOUT_MS + 15_000, "the send to time out")
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(endpoint.received.filter((r) => r.body.includes(trxId)).length).toBe(1)
      const delivery = await deliveryFor(trxId)
      expect([delivery.status, delivery.attempts, delivery.lastError]).toEqual(["pending", 1, `timeout after ${SEND_TIMEOUT_MS} ms`])
    })

    it("gives up after 3 attempts; a redelivery sends the same event again", async () => {
      const trxId = await pay("/down")
      await until(async () => (await deliveryFor(trxId)).attempts === 1)
      await advance(1)
      await until(async () => (await deliveryFor(trxId)).attempts === 2)
      await advance(2)
      await until(async () => (await deliveryFor(trxId)).status === "failed")
      const failed = await deliveryFor(trxId)
      expect([failed.attempts, failed.lastStatusCode, failed.lastError]).toEqual([3, 503, "HTTP 503"])
      await run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.requeue(failed.id, manual.unsafeNow(), fromMillis(Date.now()))))
      await until(async () => (await attemptsOf(failed.id)).length === 4)
      expect((await attemptsOf(failed.id)).at(-1)?.attempt).toBe(4)
    })

    it("never follows a redirect (a 3xx is a failed attempt) and times out a receiver that does not answer", async () => {
      const moved = await pay("/moved")
      const slow = await pay("/slow")
      await until(async () => (await deliveryFor(moved)).attempts === 1 && (await deliveryFor(slow)).attempts === 1, SEND_TIMEOUT_MS + 15_000, "both attempts")
      expect(endpoint.received.some((r) => r.path === "/ok" && r.body.includes(moved))).toBe(false)
      expect([(await deliveryFor(moved)).status, (await deliveryFor(moved)).lastStatusCode]).toEqual(["pending", 302])
      expect((await deliveryFor(slow)).lastError).toMatch(/timeout/i)
    })

    it("sweeps an expired checkout to failed on business time, with its expired event", async () => {
      const trxId = await pay("/ok", "none")
      await advance(601)
      await until(() => endpoint.received.some((r) => r.body.includes(trxId)))
      const hit = endpoint.received.find((r) => r.body.includes(trxId))!
      expect(JSON.parse(hit.body)).toMatchObject({ event: "payment.expired", status: "expired", data: { trx_id: trxId } })
    })
  })
