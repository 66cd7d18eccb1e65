import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime } from "effect"
import { makeCurrencyCatalog } from "../../../../core/money/currencies.js"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPluginDefinition } from "../../../../core/gateways/gateway-plugin.js"
import { defaultSiteSettings } from "../../../../core/settings/site-settings.js"
import { makeManualClock } from "../../../../core/shared/manual-clock.js"
import { WebhookOutbox } from "../../../../core/webhooks/webhook-outbox.js"
import { defaultWebhookConfig, kitLayer } from "../../../../hosts/kit-layer.js"
import { httpApp } from "../../app.js"
import { makeCaller, signedRequest } from "../../../../testing/http/signed-client.js"

export const BASE_URL = "http://kit.test/payments"
export const ADMIN_TOKEN = "admin-token"

/** A plugin whose gateway notifies: every notification is acknowledged and ignored. */
const notifyingPlugin: GatewayPluginDefinition<Record<string, never>> = {
  id: "notifying",
  displayName: "Notifying",
  version: "0.1.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  environments: ["sandbox", "production"],
  currencies: ["USD"],
  capabilities: { notifications: true },
  parseConfig: () => ({}),
  beginCheckout: async () => ({ redirect: "https://gateway.example/pay" }),
  handleReturn: async () => ({ outcome: "pending", verified: false }),
  handleNotification: async () => ({ ignore: true, reply: { status: 200, body: "ok" } })
}

const currencies = makeCurrencyCatalog({ cryptoCodes: [] })
if (currencies._tag === "Left") throw currencies.left

/**
 * A whole kit in process, reached under a base path as an embedding app mounts it, with a manual
 * clock (so the clock routes answer), private webhook targets allowed, and no background jobs.
 */
export const startDocumentedKit = async () => {
  const runtime = ManagedRuntime.make(kitLayer({
    store: { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-openapi-")), "store.db") },
    masterKey: new Uint8Array(32).fill(7),
    adminToken: ADMIN_TOKEN,
    settings: defaultSiteSettings,
    currencies: currencies.right,
    baseUrl: BASE_URL,
    checkoutLifetimeSeconds: 3600,
    webhooks: { ...defaultWebhookConfig, allowPrivateTargets: true },
    backgroundJobs: false,
    manualClock: makeManualClock(Date.now()),
    plugins: [notifyingPlugin]
  }))
  const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp)
  const caller = await makeCaller(runtime, "sandbox")

  const admin = async (method: string, path: string, body?: unknown) => {
    const response = await handler(new Request(`http://kit.test/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }))
    return { status: response.status, text: await response.text() }
  }
  const merchant = async (method: string, path: string, body?: unknown) => {
    const response = await handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
    return { status: response.status, text: await response.text() }
  }
  const raw = (request: Request) => handler(request)
  const created = async (path: string, body: unknown) => JSON.parse((await admin("POST", path, body)).text) as { readonly id: number }
  // The caller's shop: a USD sandbox wallet, the sandbox simulator and a gateway that notifies.
  const merchantId = (JSON.parse((await admin("GET", "/merchants")).text) as { readonly data: ReadonlyArray<{ readonly id: number }> }).data[0]!.id
  const wallet = await created(`/merchants/${merchantId}/wallets`, { currency_code: "USD", environment: "sandbox" })
  const sandboxGateway = await created("/gateways", { plugin: "sandbox", name: "Sandbox", currency_code: "USD", method: "cards" })
  const notifyingGateway = await created("/gateways", { plugin: "notifying", name: "Notifying", currency_code: "USD", method: "notify" })
  /** The bodies of the webhooks queued so far, as sent. */
  const outbox = () => runtime.runPromise(Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ limit: 200 })))
  const shop = { merchantId, walletId: wallet.id, sandboxGatewayId: sandboxGateway.id, notifyingGatewayId: notifyingGateway.id }
  return { handler, admin, merchant, raw, outbox, shop, close: () => runtime.dispose() }
}

export type DocumentedKit = Awaited<ReturnType<typeof startDocumentedKit>>

const IPN = "http://127.0.0.1:9/ipn"

export const initiateBody = (refTrx: string) => ({
  payment_amount: "25.50",
  currency_code: "USD",
  ref_trx: refTrx,
  success_redirect: "https://shop.example/done",
  cancel_redirect: "https://shop.example/cancel",
  ipn_url: IPN,
  customer_email: "buyer@shop.example"
})

export const subscriptionBody = (reference: string) => ({
  payment_amount: "19.99",
  currency_code: "USD",
  external_reference: reference,
  billing_cycle: "monthly",
  customer_email: "buyer@shop.example",
  success_redirect: "https://shop.example/done",
  cancel_redirect: "https://shop.example/cancel",
  ipn_url: IPN
})
