import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type KitUnderTest, startKit } from "../conformance/gateway/kit-harness.js"
import { NOTIFICATIONS_PER_MINUTE } from "../adapters/http/gateway-notify/gateway-notify-routes.js"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPluginDefinition } from "../core/gateways/gateway-plugin.js"

/**
 * A plugin whose gateway cannot sign its notifications: every one is unverified and names the
 * transaction in its body, so the kit asks the gateway (syncStatus) instead of trusting it. The
 * gateway always says pending; each ask is counted.
 */
const makeUnsignedGateway = () => {
  const asked: Array<number> = []
  const definition: GatewayPluginDefinition = {
    id: "unsigned-notices",
    displayName: "Unsigned notices",
    version: "1.0.0",
    apiVersion: GATEWAY_PLUGIN_API_VERSION,
    currencies: "any",
    environments: ["sandbox", "production"],
    capabilities: { notifications: true, statusSync: true },
    secretConfigKeys: [],
    parseConfig: (raw) => Effect.succeed(raw),
    beginCheckout: () => Effect.succeed({ redirect: "https://gateway.example/pay" }),
    handleReturn: () => Effect.succeed({ outcome: "pending", verified: false }),
    handleNotification: ({ rawBody }) =>
      Effect.succeed({ trxId: new TextDecoder().decode(rawBody), outcome: "paid", verified: false }),
    syncStatus: () => Effect.sync(() => (asked.push(Date.now()), { outcome: "pending" }))
  }
  return { definition, asked }
}

/**
 * Issue 19 item 7: the notify route is limited per gateway and address (429 with Retry-After past
 * it), and however many unverified notifications name one payment, the gateway is asked about it at
 * most once a minute.
 */
describe("gateway notifications are limited", () => {
  const gateway = makeUnsignedGateway()
  let kit: KitUnderTest

  beforeAll(async () => {
    kit = await startKit(gateway.definition, { config: {}, customer: () => Promise.resolve(undefined) })
  })
  afterAll(() => kit.close())

  it("1,000 unverified notifications naming one payment: at most one ask of the gateway in the minute, the rest past the limit answered 429", async () => {
    const payment = await kit.initiate()
    const chosen = await kit.choose(payment)
    expect(chosen.answer.status, chosen.answer.body).toBe(303)
    const body = new TextEncoder().encode(payment.trxId)
    // The limits count per wall-clock minute: start well inside one, so the burst is counted whole.
    const intoMinute = Date.now() % 60_000
    if (intoMinute > 45_000) await new Promise((resolve) => setTimeout(resolve, 60_500 - intoMinute))
    const startedAt = Date.now()
    const answers: Array<{ readonly status: number }> = []
    for (let i = 0; i < 1_000; i++) answers.push(await kit.notify({ rawBody: body, headers: {} }))
    const minutes = new Set([startedAt, Date.now()].map((at) => Math.floor(at / 60_000))).size
    // One ask per minute window the run touched (a run straddling a minute may ask twice).
    expect(gateway.asked.length).toBeGreaterThanOrEqual(1)
    expect(gateway.asked.length).toBeLessThanOrEqual(minutes)
    const refused = answers.filter((answer) => answer.status === 429).length
    const accepted = answers.filter((answer) => answer.status === 200).length
    expect(accepted + refused).toBe(1_000)
    if (minutes === 1) expect(accepted).toBe(NOTIFICATIONS_PER_MINUTE)
    // Nothing was trusted: the payment is still pending.
    expect((await kit.payment(payment.trxId)).status).toBe("pending")
  }, 90_000)
})
