import { mkdtempSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Logging from "../adapters/logging/logger-layer.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AuthenticatedMerchant } from "../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../core/merchants/merchant-admin.js"
import { finishPayment } from "../core/payments/finish-payment.js"
import { initiatePayment } from "../core/payments/initiate-payment.js"
import { Instant } from "../core/shared/instant.js"
import { createSubscription } from "../core/subscriptions/create-subscription.js"
import { runOnce } from "../core/subscriptions/scheduler.js"
import { SubscriptionRepository } from "../core/subscriptions/subscription-repository.js"
import { WebhookTargetCheck } from "../core/webhooks/target-check.js"
import { createWallet } from "../core/wallets/wallet-admin.js"
import { WebhookTargets } from "../core/webhooks/target-rule.js"
import { WebhookOutbox } from "../core/webhooks/webhook-outbox.js"
import { defaultWebhookConfig, kitLayer } from "../hosts/kit-layer.js"
import { testKitConfig } from "./suites/test-kit-config.js"

/** An approved merchant taking USD in sandbox, as the caller its use cases see. */
const sandboxShop = (name: string) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant({ name, status: "approved" })
    yield* replaceCurrencies(merchant.id, ["USD"])
    yield* createWallet(merchant.id, "USD", "sandbox")
    yield* issueCredentials(merchant.id, "sandbox")
    return { merchant, environment: "sandbox" } as AuthenticatedMerchant
  })

describe("webhook SSRF guard, end to end", () => {
  let connections = 0
  const receiver = createServer((_, response) => response.end("ok"))
  receiver.on("connection", () => connections++)
  let port = 0
  const logLines: Array<string> = []
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  const run = <A, E>(effect: Effect.Effect<A, E, any>) => runtime.runPromise(effect as Effect.Effect<A, E, never>)

  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    port = (receiver.address() as { port: number }).port
    runtime = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-ssrf-")), "store.db") }, {
      checkoutLifetimeSeconds: 600,
      backgroundJobs: true,
      // The production default: private and loopback targets are refused.
      webhooks: { ...defaultWebhookConfig, pollIntervalMillis: 50 }
    })).pipe(Layer.provide(Logging.layer({ format: "json", level: "info", write: (line) => logLines.push(line) }))))
  })
  afterAll(async () => {
    await runtime.dispose()
    receiver.close()
  })

  it("refuses a loopback ipn_url: initiate refuses it, and delivery fails at once with the reason, no connection made", async () => {
    const trxId = await run(Effect.gen(function*() {
      const caller = yield* sandboxShop("Guarded")
      const request = {
        amount: { kind: "json-number", text: "10" }, currency: "USD", refTrx: "ssrf-1",
        successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/c",
        ipnUrl: `http://127.0.0.1:${port}/ipn`, description: null, customerName: null, customerEmail: null, keywords: []
      } as const
      // The use case refuses it, over HTTP or not...
      const refusedAtOnce = yield* Effect.flip(initiatePayment(caller, request))
      expect(refusedAtOnce._tag === "ValidationFailed" ? refusedAtOnce.errors : refusedAtOnce).toEqual({
        ipnUrl: ["The ipn url field must be a public http or https address; refused: loopback."]
      })
      // ...so one accepted where private targets were allowed (as a name that later resolves to
      // loopback would be) stands for what delivery must still refuse.
      const session = yield* Effect.provideService(initiatePayment(caller, request), WebhookTargets, { allowPrivateTargets: true })
      yield* finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null })
      return session.payment.trxId
    }))
    const delivery = async () =>
      (await run(Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ limit: 10 })))).find((d) => d.body.includes(trxId))!
    const started = Date.now()
    while ((await delivery()).status === "pending" && Date.now() - started < 10_000) await new Promise((r) => setTimeout(r, 25))
    const refused = await delivery()
    expect([refused.status, refused.attempts, refused.lastError]).toEqual(["failed", 1, "refused target: loopback (127.0.0.1)"])
    expect(connections).toBe(0)
    // One log line says so, with the reason and the event, and names the target by origin only.
    const failures = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.event_id === refused.id)
    expect(failures).toEqual([expect.objectContaining({
      level: "WARN",
      message: "webhook attempt 1 failed: refused target: loopback (127.0.0.1) (no more attempts)",
      reason: "refused target: loopback (127.0.0.1)",
      attempt: 1,
      retrying: false,
      target: `http://127.0.0.1:${port}`
    })])
  })

  it("opens a subscription's invoice for a receiver taken when the subscription was made, though private targets are refused since", async () => {
    const invoices = await run(Effect.gen(function*() {
      const caller = yield* sandboxShop("Local receiver")
      // Made where private targets were allowed (a setting the operator has turned off since), due in a second.
      const allowed = { check: () => Effect.succeed({ privateTarget: true }) }
      const { subscription } = yield* createSubscription(caller, {
        externalReference: "local-1", billingCycle: "monthly", amount: { kind: "json-number", text: "9" }, currency: "USD",
        customerEmail: "ada@example.com", customerName: null, description: null,
        successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/c", ipnUrl: `http://127.0.0.1:${port}/ipn`,
        allowPaymentMethods: [], metadata: {}, startsAt: Instant(BigInt(Date.now() + 1_000) * 1000n)
      }).pipe(Effect.provideService(WebhookTargetCheck, allowed), Effect.provideService(WebhookTargets, { allowPrivateTargets: true }))
      yield* Effect.sleep("1200 millis")
      yield* runOnce
      return yield* (yield* SubscriptionRepository).latestInvoices(subscription.id, 5)
    }))
    // The invoice opened: the customer can pay; delivery alone still refuses the private target.
    expect(invoices.map((invoice) => [invoice.sequence, invoice.status])).toEqual([[1, "pending"]])
  })
})
