import { createHmac, timingSafeEqual } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantClient, type MerchantClient, verifyWebhook } from "../client/index.js"
import { standardWebhooksAccept } from "../testing/http/loopback.js"
import { type Received, type RecordingReceiverHost, startRecordingReceiverHost } from "./suites/recording-receiver-host.js"
import { until } from "./suites/until.js"

// Issue 35, item 5: account events go to a merchant's webhook endpoints. The kit runs behind
// node:http over SQLite, driven through its signed merchant API and its admin HTTP API; a loopback
// receiver records what is delivered to each of its paths. A payout's payout.paid must reach the
// endpoint subscribed to payout.*, verified by the standardwebhooks package with the webhook secret
// as issued and by the kit's own X-Signature rule; a completed payment must reach its ipn_url and a
// subscribed endpoint both, and neither event may reach an endpoint not subscribed to it.

const ADMIN_TOKEN = "adm_webhook-endpoint-delivery-token"

interface Issued {
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
}

/** The contract's X-Signature: hex HMAC-SHA256 of the raw body keyed with the secret's bytes, written out here as a receiver would. */
const xSignatureVerifies = (secret: string, delivery: Received): boolean => {
  const expected = Buffer.from(createHmac("sha256", secret).update(delivery.body).digest("hex"))
  const sent = Buffer.from(String(delivery.headers["x-signature"]).replace(/^sha256=/, ""))
  return sent.length === expected.length && timingSafeEqual(sent, expected)
}

describe("webhook endpoints: account events and payment events delivered to subscribed endpoints", () => {
  let host: RecordingReceiverHost
  let issued: Issued
  let client: MerchantClient

  const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const answer = await host.admin(method, path, body)
    expect(answer.status, JSON.stringify(answer.json)).toBeLessThan(300)
    return answer.json
  }
  const at = (path: string) => host.received.filter((entry) => entry.path === path)
  const eventsAt = (path: string) => at(path).map((entry) => JSON.parse(entry.body).event as string)
  const deliveryAt = (path: string, event: string, about: (body: any) => boolean) =>
    until(() => at(path).some((entry) => { const body = JSON.parse(entry.body); return body.event === event && about(body) }), 20_000, `${event} at ${path}`)
      .then(() => at(path).find((entry) => { const body = JSON.parse(entry.body); return body.event === event && about(body) })!)

  beforeAll(async () => {
    host = await startRecordingReceiverHost({ adminToken: ADMIN_TOKEN, masterKey: "5a".repeat(32) })
    const merchant = await admin("POST", "/merchants", { name: "Endpoint Shop", status: "approved" })
    await admin("PUT", `/merchants/${merchant.id}/currencies`, { currency_codes: ["EUR", "USD"] })
    const wallet = await admin("POST", `/merchants/${merchant.id}/wallets`, { currency_code: "EUR", environment: "sandbox" })
    await admin("POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "sandbox" })
    await admin("POST", `/wallets/${wallet.id}/adjustments`, { amount: "100.00", reason: "Opening float" })
    issued = await admin("POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" })
    client = createMerchantClient({
      baseUrl: host.origin,
      environment: "sandbox",
      merchantKey: issued.merchant_key,
      apiKey: issued.api_key,
      clientSecret: issued.client_secret,
      webhookSecret: issued.webhook_secret
    })
  }, 60_000)
  afterAll(() => host?.close())

  it("delivers payout.paid to the endpoint subscribed to payout.*, verified by standardwebhooks and by X-Signature", async () => {
    const payouts = await client.request("createWebhookEndpoint", { body: { url: `${host.hook}/payouts`, events: ["payout.*"] } })
    await client.request("createWebhookEndpoint", { body: { url: `${host.hook}/disputes`, events: ["dispute.*"] } })
    const disabled = await client.request("createWebhookEndpoint", { body: { url: `${host.hook}/disabled`, events: ["*"] } })
    await client.request("updateWebhookEndpoint", { path: { endpointId: disabled.data.id }, body: { status: "disabled" } })

    const destination = await client.createPayoutDestination({ type: "bank_account", account_holder: "Endpoint Shop", iban: "DE89370400440532013000", currency: "EUR" })
    const payout = (await client.request("createPayout", { body: { amount: "30.25", currency: "EUR", destination_id: destination.data.id } })).data
    await admin("POST", `/payouts/${payout.id}/approve`)
    const paidAnswer = await admin("POST", `/payouts/${payout.id}/mark-paid`, { reference: "BANK-42" })

    const paid = await deliveryAt("/payouts", "payout.paid", (body) => body.data.id === payout.id)
    const created = await deliveryAt("/payouts", "payout.created", (body) => body.data.id === payout.id)
    // The payout as GET /api/v1/payouts/{id} answers it (the client gives amounts as decimal text), the amount an exact number.
    const read = await client.request("getPayout", { path: { payoutId: payout.id } })
    const body = JSON.parse(paid.body)
    expect(body).toEqual({ event: "payout.paid", status: "paid", message: expect.any(String), timestamp: expect.any(Number), data: { ...read.data, amount: 30.25 } })
    expect(read.data.amount).toBe("30.25")
    expect(paid.body).toContain("\"amount\":30.25,")
    expect(body.data).toMatchObject({ status: "paid", reference: "BANK-42", id: paidAnswer.data.id })
    expect(JSON.parse(created.body).data.status).toBe("pending")

    expect(standardWebhooksAccept(issued.webhook_secret, paid)).toBe(true)
    expect(xSignatureVerifies(issued.webhook_secret, paid)).toBe(true)
    expect(standardWebhooksAccept(issued.webhook_secret, { ...paid, body: paid.body.replace("30.25", "30.26") })).toBe(false)
    expect(paid.headers["webhook-id"]).toBe(paid.headers["x-event-id"])
    expect(paid.headers["x-environment"]).toBe("sandbox")
    const check = verifyWebhook({ rawBody: paid.body, webhookSecret: issued.webhook_secret, clientSecret: issued.client_secret, signature: String(paid.headers["x-signature"]) })
    expect(check).toEqual({ valid: true, kind: "account" })

    // The events API lists it, by the id it was delivered with.
    const listed = await client.request("listEvents", { query: { object_id: payout.id } })
    expect(listed.data.map((event) => [event.type, event.url])).toEqual([[`payout.paid`, `${host.hook}/payouts`], [`payout.created`, `${host.hook}/payouts`]])
    expect(listed.data[0]!.id).toBe(paid.headers["webhook-id"])

    // Nothing for an endpoint not subscribed, nor for a disabled one.
    expect(eventsAt("/disputes")).toEqual([])
    expect(eventsAt("/disabled")).toEqual([])
    expect(payouts.data.events).toEqual(["payout.*"])
  }, 60_000)

  it("sends a rejected payout's payout.failed, the status saying rejected", async () => {
    const destination = (await client.listPayoutDestinations()).data[0]!
    const payout = (await client.request("createPayout", { body: { amount: "1.00", currency: "EUR", destination_id: destination.id } })).data
    await admin("POST", `/payouts/${payout.id}/reject`, { reason: "Not the shop's account" })
    const failed = await deliveryAt("/payouts", "payout.failed", (body) => body.data.id === payout.id)
    expect(JSON.parse(failed.body)).toMatchObject({ status: "rejected", data: { status: "rejected", reason: "Not the shop's account" } })
    expect(standardWebhooksAccept(issued.webhook_secret, failed)).toBe(true)
  }, 60_000)

  it("sends payment.completed to the payment's ipn_url and to a subscribed endpoint, the same bytes, each its own event", async () => {
    await client.request("createWebhookEndpoint", { body: { url: `${host.hook}/payments`, events: ["payment.completed"] } })
    const session = await client.initiatePayment({
      payment_amount: "40", currency_code: "USD", ref_trx: "endpoint-order-1",
      success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${host.hook}/ipn`
    })
    const trxId = session.info.trx_id
    await client.simulatePayment(trxId, "success")
    const toIpn = await deliveryAt("/ipn", "payment.completed", (body) => body.data.trx_id === trxId)
    const toEndpoint = await deliveryAt("/payments", "payment.completed", (body) => body.data.trx_id === trxId)
    expect(toEndpoint.body).toBe(toIpn.body)
    expect(toEndpoint.headers["webhook-id"]).not.toBe(toIpn.headers["webhook-id"])
    for (const delivery of [toIpn, toEndpoint]) {
      expect(standardWebhooksAccept(issued.webhook_secret, delivery)).toBe(true)
      expect(xSignatureVerifies(issued.webhook_secret, delivery)).toBe(true)
    }
    // A refund is not payment.completed: the endpoint subscribed to that alone is not sent it, the ipn_url is.
    await client.refundPayment({ trx_id: trxId, amount: "5", ref_refund: "endpoint-refund-1" })
    await deliveryAt("/ipn", "payment.refunded", (body) => body.data.original_trx_id === trxId)
    expect(eventsAt("/payments")).toEqual(["payment.completed"])
    // Payment events reach no endpoint subscribed only to payouts.
    expect(eventsAt("/payouts").every((event) => event.startsWith("payout."))).toBe(true)
  }, 60_000)
})
