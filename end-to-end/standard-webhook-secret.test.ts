import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantClient, type MerchantClient } from "../client/index.js"
import { standardWebhooksAccept } from "../testing/http/loopback.js"
import { type RecordingReceiverHost, startRecordingReceiverHost } from "./suites/recording-receiver-host.js"
import { until } from "./suites/until.js"

// Issue 33, item 1: the webhook secret exactly as the credentials endpoint returned it is a Standard
// Webhooks secret. The kit runs behind node:http, credentials are issued through the admin HTTP API,
// and a loopback receiver takes what is delivered; `new Webhook(secret)` from the standardwebhooks
// package must verify payment and refund events, and, during a rotation's overlap, under both secrets.

const ADMIN_TOKEN = "adm_standard-webhook-secret-test-token"

interface Issued {
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
  readonly previous_valid_until: string | null
}

describe("the issued whsec_ secret, given as it is to the standardwebhooks package", () => {
  let host: RecordingReceiverHost

  const admin = async (method: string, path: string, body?: unknown): Promise<any> => {
    const answer = await host.admin(method, path, body)
    expect(answer.status, JSON.stringify(answer.json)).toBeLessThan(300)
    return answer.json
  }

  const clientOf = (issued: Issued): MerchantClient =>
    createMerchantClient({
      baseUrl: host.origin,
      environment: "sandbox",
      merchantKey: issued.merchant_key,
      apiKey: issued.api_key,
      clientSecret: issued.client_secret,
      webhookSecret: issued.webhook_secret
    })

  const delivery = (event: string, about: (body: any) => boolean) =>
    until(() => host.received.some((entry) => { const body = JSON.parse(entry.body); return body.event === event && about(body) }), 20_000, `a ${event} delivery`)
      .then(() => host.received.find((entry) => { const body = JSON.parse(entry.body); return body.event === event && about(body) })!)

  /** A paid payment of 40 and a refund of 15 of it, each as the receiver got it. */
  const paidAndRefunded = async (client: MerchantClient, reference: string) => {
    const session = await client.initiatePayment({
      payment_amount: "40", currency_code: "USD", ref_trx: reference,
      success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${host.hook}/ipn`
    })
    const trxId = session.info.trx_id
    await client.simulatePayment(trxId, "success")
    const paid = await delivery("payment.completed", (body) => body.data.trx_id === trxId)
    const refund = await client.refundPayment({ trx_id: trxId, amount: "15", ref_refund: `${reference}-refund` })
    const refunded = await delivery("payment.refunded", (body) => body.data.refund_trx_id === refund.refund_trx_id)
    return { paid, refunded }
  }

  beforeAll(async () => {
    host = await startRecordingReceiverHost({ adminToken: ADMIN_TOKEN, masterKey: "57".repeat(32) })
  }, 60_000)
  afterAll(() => host?.close())

  it("verifies payment and refund events, and both secrets during a rotation's overlap", async () => {
    const merchant = await admin("POST", "/merchants", { name: "Standard Shop", status: "approved" })
    await admin("PUT", `/merchants/${merchant.id}/currencies`, { currency_codes: ["USD"] })
    await admin("POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "sandbox" })
    const old: Issued = await admin("POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" })
    expect(old.webhook_secret).toMatch(/^whsec_[0-9A-Za-z]+$/)

    const before = await paidAndRefunded(clientOf(old), "std-1")
    expect(standardWebhooksAccept(old.webhook_secret, before.paid)).toBe(true)
    // The refund event is signed with the webhook secret too, beside the client secret (spec 6.3).
    expect(standardWebhooksAccept(old.webhook_secret, before.refunded)).toBe(true)
    expect(standardWebhooksAccept(`whsec_${Buffer.from(old.client_secret).toString("base64")}`, before.refunded)).toBe(true)
    expect(standardWebhooksAccept(`whsec_${Buffer.from(old.client_secret).toString("base64")}`, before.paid)).toBe(false)

    // A rotation with an overlap: deliveries verify under the old and the new secret alike.
    const fresh: Issued = await admin("POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox", overlap_seconds: 3_600 })
    expect(fresh.previous_valid_until).not.toBeNull()
    const during = await paidAndRefunded(clientOf(fresh), "std-2")
    for (const event of [during.paid, during.refunded]) {
      expect(standardWebhooksAccept(old.webhook_secret, event)).toBe(true)
      expect(standardWebhooksAccept(fresh.webhook_secret, event)).toBe(true)
    }

    // Once the overlap ends, only the new secret does.
    await admin("POST", `/merchants/${merchant.id}/credentials/end-overlap`, { environment: "sandbox" })
    const after = await paidAndRefunded(clientOf(fresh), "std-3")
    for (const event of [after.paid, after.refunded]) {
      expect(standardWebhooksAccept(fresh.webhook_secret, event)).toBe(true)
      expect(standardWebhooksAccept(old.webhook_secret, event)).toBe(false)
    }
  }, 60_000)
})
