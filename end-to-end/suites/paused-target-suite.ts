import { createServer, type Server } from "node:http"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthenticatedMerchant } from "../../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { failingTargets } from "../../core/webhooks/delivery-admin.js"
import { listEvents, recoverEvents } from "../../core/webhooks/merchant-events.js"
import { WebhookOutbox } from "../../core/webhooks/webhook-outbox.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"
import { until } from "./until.js"

const PAUSE_AFTER_SECONDS = 3_600

/**
 * A target that fails every attempt for the pause period is paused: its events wait, unsent, while
 * another merchant's events to the same receiver keep going; the merchant's recover resumes it and
 * everything goes out. On the manual clock, as the retry schedule is.
 */
export const pausedTargetSuite = (name: string, store: () => StoreConfig) =>
  describe(`paused webhook targets: ${name}`, () => {
    const manual = makeManualClock(Date.now())
    let down = true
    const received: Array<string> = []
    const server: Server = createServer((request, response) => {
      request.resume()
      request.on("end", () => {
        received.push(String(request.headers["webhook-id"]))
        response.writeHead(down && request.url === "/down" ? 503 : 204).end()
      })
    })
    let base = ""
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(Effect.withClock(effect as Effect.Effect<A, E, never>, manual.clock))

    beforeAll(async () => {
      base = await new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        backgroundJobs: true,
        // One attempt each: every event of a target that is down fails at once. The receiver answers
        // at once; the long timeout keeps a stalled event loop on a loaded machine from failing an
        // answered attempt, which, with no retry, would leave a recovered event undelivered.
        webhooks: { timeoutMs: 30_000, retryDelaysMillis: [], allowPrivateTargets: true, pollIntervalMillis: 20, pauseAfterSeconds: PAUSE_AFTER_SECONDS },
        manualClock: manual
      })))
    })
    afterAll(async () => {
      await runtime.dispose()
      await new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
    })

    const shop = (label: string) =>
      run(Effect.gen(function*() {
        const merchant = yield* createMerchant({ name: label, status: "approved" })
        yield* replaceCurrencies(merchant.id, ["USD"])
        yield* createWallet(merchant.id, "USD", "sandbox")
        const issued = yield* issueCredentials(merchant.id, "sandbox")
        return { merchant, environment: "sandbox", clientSecret: issued.clientSecret, webhookSecret: issued.webhookSecret } as AuthenticatedMerchant
      }))

    let sequence = 0
    /** A paid payment whose event goes to `path` on the receiver; its event id. */
    const paid = async (caller: AuthenticatedMerchant, path: string) => {
      const session = await run(initiatePayment(caller, {
        amount: { kind: "json-number", text: "5" },
        currency: "USD",
        refTrx: `paused-${++sequence}`,
        successRedirect: "https://shop.example/ok",
        cancelRedirect: "https://shop.example/c",
        ipnUrl: `${base}${path}`,
        description: null,
        customerName: null,
        customerEmail: null,
        keywords: []
      }))
      await run(finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null }))
      const [event] = await run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.events({ merchantId: caller.merchant.id, environment: "sandbox", objectId: session.payment.trxId, limit: 1 })))
      return event!.id
    }
    const stateOf = (id: string) =>
      run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.findById(id))).then((found) => found._tag === "Some" ? [found.value.status, found.value.attempts] : undefined)

    it("pauses a merchant's target after failing every attempt for the period, holds its events, and resumes it on recover", async () => {
      const merchant = await shop("Paused Shop")
      const neighbour = await shop("Neighbour Shop")
      const since = manual.unsafeNow()

      const first = await paid(merchant, "/down")
      // The target's health is noted just after the attempt is recorded: wait for the note, not the status.
      const targetsNow = () => run(failingTargets({ merchantId: merchant.merchant.id }))
      await until(async () => (await stateOf(first))?.[0] === "failed" && (await targetsNow()).length === 1)
      const [failing] = await targetsNow()
      expect(failing).toMatchObject({ target: base, environment: "sandbox", pausedAt: null })

      // Failing for less than the period: still tried.
      await run(manual.advance(PAUSE_AFTER_SECONDS - 10))
      const second = await paid(merchant, "/down")
      await until(async () => (await stateOf(second))?.[0] === "failed")
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect((await targetsNow())[0]).toEqual(failing)

      // Past it: the failure that lands there pauses the target.
      await run(manual.advance(20))
      const third = await paid(merchant, "/down")
      await until(async () => (await targetsNow())[0]?.pausedAt !== null)
      expect(await stateOf(third)).toEqual(["failed", 1])
      const [paused] = await targetsNow()
      expect(paused?.failingSince).toEqual(failing?.failingSince)

      // A paused target's new events wait unsent; the neighbour's, to the same receiver, go out.
      const waiting = await paid(merchant, "/up")
      const neighbours = await paid(neighbour, "/up")
      await until(() => received.includes(neighbours))
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(await stateOf(waiting)).toEqual(["pending", 0])
      expect(received).not.toContain(waiting)
      const page = await run(listEvents(merchant, { limit: 10 }))
      expect(page.pausedTargets.map((t) => t.target)).toEqual([base])
      expect((await run(listEvents(neighbour, { limit: 10 }))).pausedTargets).toEqual([])

      // The receiver is back; the merchant recovers: the failed ones are queued, the waiting one goes too.
      down = false
      expect(await run(recoverEvents(merchant, { since }))).toEqual({ queued: 3, resumedTargets: 1 })
      await until(async () => (await Promise.all([first, second, third, waiting].map(stateOf))).every((state) => state?.[0] === "delivered"))
      await until(async () => (await targetsNow()).length === 0)
      expect((await run(listEvents(merchant, { limit: 10 }))).pausedTargets).toEqual([])
    })
  })
