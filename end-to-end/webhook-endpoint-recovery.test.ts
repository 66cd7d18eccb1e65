import { createServer, type Server } from "node:http"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthenticatedMerchant } from "../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../core/merchants/merchant-admin.js"
import { finishPayment } from "../core/payments/finish-payment.js"
import { initiatePayment } from "../core/payments/initiate-payment.js"
import { fromMillis } from "../core/shared/instant.js"
import { createWallet } from "../core/wallets/wallet-admin.js"
import { listEvents, recoverEvents } from "../core/webhooks/merchant-events.js"
import { createWebhookEndpoint } from "../core/webhooks/webhook-endpoints.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { testKitConfig } from "./suites/test-kit-config.js"
import { until } from "./suites/until.js"

// An endpoint's copy of an event is an event like any other: when the endpoint is down it fails
// (while the ipn_url's copy is delivered), the events API lists it failed, and the merchant's
// recover sends it again, with its id, once the endpoint is back.
describe("webhook endpoints: a failed delivery to an endpoint is recovered as every event is", () => {
  let down = true
  const received: Array<{ readonly path: string; readonly id: string }> = []
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on("end", () => {
      received.push({ path: request.url ?? "/", id: String(request.headers["webhook-id"]) })
      response.writeHead(down && request.url === "/endpoint" ? 503 : 204).end()
    })
  })
  let base = ""
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)

  beforeAll(async () => {
    base = await new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))
    runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-endpoint-recovery-")), "store.db") }, {
      backgroundJobs: true,
      // One attempt: a delivery to an endpoint that is down fails at once.
      webhooks: { timeoutMs: 30_000, retryDelaysMillis: [], allowPrivateTargets: true, pollIntervalMillis: 20 }
    })))
  })
  afterAll(async () => {
    await runtime.dispose()
    await new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  })

  it("fails the endpoint's copy while the ipn_url gets its own, then delivers it on recover", async () => {
    const since = Date.now()
    const caller = await run(Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Recovering Shop", status: "approved" })
      yield* replaceCurrencies(merchant.id, ["USD"])
      yield* createWallet(merchant.id, "USD", "sandbox")
      const issued = yield* issueCredentials(merchant.id, "sandbox")
      return { merchant, environment: "sandbox", clientSecret: issued.clientSecret, webhookSecret: issued.webhookSecret } as AuthenticatedMerchant
    }))
    await run(createWebhookEndpoint(caller, { url: `${base}/endpoint`, events: ["payment.*"], description: null }))
    const session = await run(initiatePayment(caller, {
      amount: { kind: "json-number", text: "5" }, currency: "USD", refTrx: "recover-1",
      successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/c", ipnUrl: `${base}/ipn`,
      description: null, customerName: null, customerEmail: null, keywords: []
    }))
    await run(finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null }))

    const events = () => run(listEvents(caller, { limit: 10 })).then((page) => page.events)
    await until(async () => (await events()).every((event) => event.status !== "pending"), 10_000, "both attempts")
    const settled = await events()
    const toEndpoint = settled.find((event) => event.url === `${base}/endpoint`)!
    const toIpn = settled.find((event) => event.url === `${base}/ipn`)!
    expect([toIpn.status, toEndpoint.status, toEndpoint.event, toEndpoint.objectId]).toEqual(["delivered", "failed", "payment.completed", session.payment.trxId])

    down = false
    expect((await run(recoverEvents(caller, { since: fromMillis(since) }))).queued).toBe(1)
    await until(async () => (await events()).every((event) => event.status === "delivered"), 10_000, "the recovered delivery")
    expect(received.filter((each) => each.path === "/endpoint").map((each) => each.id)).toEqual([toEndpoint.id, toEndpoint.id])
    expect(received.filter((each) => each.path === "/ipn").map((each) => each.id)).toEqual([toIpn.id])
  }, 60_000)
})
