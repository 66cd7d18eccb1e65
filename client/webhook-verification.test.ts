import { beforeAll, describe, expect, it } from "vitest"
import {
  currentReceiverUrl,
  type Received,
  received,
  waitFor
} from "../testing/hosts/child-hosts.js"
import { Webhook } from "standardwebhooks"
import { standardWebhookSecret, verifyWebhook } from "./index.js"
import type { MerchantClient } from "./merchant-client.js"
import { checkoutAddresses, type ClientHost, demoClient, startClientHost } from "./testing/client-hosts.js"
import { childHostSuite } from "../testing/hosts/child-host-suite.js"

/** The event of `name` the receiver got whose body satisfies `about`. */
const delivered = (name: string, about: (body: any) => boolean): Promise<Received> =>
  waitFor(`a ${name} delivery`, 15_000, () =>
    received.find((request) => {
      const body = JSON.parse(request.text)
      return body.event === name && about(body)
    }))

const headersOf = (request: Received) => ({
  rawBody: request.rawBody,
  signature: request.headers["x-signature"],
  environmentHeader: request.headers["x-environment"]
})

/** verifyWebhook on what the built standalone host really delivered to a loopback receiver. */
describe("merchant client: verifying delivered webhooks", () => {
  const scratch = childHostSuite("mp-client-webhooks-")
  let target: ClientHost
  let client: MerchantClient
  beforeAll(async () => {
    target = await startClientHost(scratch(), "host", { WEBHOOK_POLL_INTERVAL_MS: "100" })
    client = demoClient(target)
  }, 180_000)

  /** Pays a new payment of 40 and waits for its completed IPN. */
  const paidIpn = async (refTrx: string) => {
    const session = await client.initiatePayment({ payment_amount: "40", currency_code: "USD", ref_trx: refTrx, ...checkoutAddresses(currentReceiverUrl()) })
    const trxId = session.info.trx_id
    await client.simulatePayment(trxId, "success")
    return { trxId, ipn: await delivered("payment.completed", (body) => body.data.trx_id === trxId) }
  }

  it("accepts a delivered payment IPN and a refund event, each with the secret that signs its kind", async () => {
    const { ipn, trxId } = await paidIpn("hook-1")
    expect(client.verifyWebhook(headersOf(ipn))).toEqual({ valid: true, kind: "payment" })

    const refund = await client.refundPayment({ trx_id: trxId, amount: "15", ref_refund: "hook-rf-1" })
    const refunded = await delivered("payment.refunded", (body) => body.data.refund_trx_id === refund.refund_trx_id)
    expect(client.verifyWebhook(headersOf(refunded))).toEqual({ valid: true, kind: "refund" })
    expect(refunded.text).toContain('"refunded_amount":15')

    // Refund events are signed with the client secret, payment events with the webhook secret: not the other way round.
    const swapped = demoClient(target, { clientSecret: target.demo.webhook_secret, webhookSecret: target.demo.client_secret })
    expect(swapped.verifyWebhook(headersOf(refunded))).toEqual({ valid: false, reason: "bad_signature" })
    expect(swapped.verifyWebhook(headersOf(ipn))).toEqual({ valid: false, reason: "bad_signature" })

    // The kit's own check, re-exported, decides the same.
    expect(verifyWebhook({ ...headersOf(refunded), signature: String(refunded.headers["x-signature"]), environmentHeader: "sandbox", webhookSecret: target.demo.webhook_secret, clientSecret: target.demo.client_secret }))
      .toEqual({ valid: true, kind: "refund" })
  })

  it("signs every delivery the Standard Webhooks way too: the standardwebhooks package and the client both verify it", async () => {
    const { ipn } = await paidIpn("hook-standard")
    const headers = {
      "webhook-id": String(ipn.headers["webhook-id"]),
      "webhook-timestamp": String(ipn.headers["webhook-timestamp"]),
      "webhook-signature": String(ipn.headers["webhook-signature"])
    }
    // The id is the event's, as X-Event-Id says; the timestamp is this attempt's, on the wall clock.
    expect(headers["webhook-id"]).toBe(ipn.headers["x-event-id"])
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60)
    const secret = target.demo.webhook_secret
    const payload = Buffer.from(ipn.rawBody).toString("utf8")
    // The issued whsec_ secret is a Standard Webhooks secret as it is.
    expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload))
    expect(standardWebhookSecret(secret)).toBe(secret)
    expect(() => new Webhook(standardWebhookSecret(target.demo.client_secret)).verify(payload, headers)).toThrow()

    const standard = { rawBody: ipn.rawBody, environmentHeader: ipn.headers["x-environment"], webhookId: headers["webhook-id"], webhookTimestamp: headers["webhook-timestamp"], webhookSignature: headers["webhook-signature"] }
    expect(client.verifyWebhook(standard)).toEqual({ valid: true, kind: "payment" })
    // A replay after the tolerance is refused, however well signed; another id is a forgery.
    expect(client.verifyWebhook({ ...standard, toleranceSeconds: 0, webhookTimestamp: String(Number(headers["webhook-timestamp"]) - 10) }))
      .toEqual({ valid: false, reason: "stale_timestamp" })
    expect(client.verifyWebhook({ ...standard, webhookId: "another-event" })).toEqual({ valid: false, reason: "bad_signature" })
  })

  it("accepts a subscription's invoice.created event", async () => {
    const created = await client.createSubscription({
      external_reference: "hook-plan", billing_cycle: "monthly", payment_amount: "9", currency_code: "USD", customer_email: "ada@example.com",
      ...checkoutAddresses(currentReceiverUrl())
    })
    const event = await delivered("invoice.created", (body) => body.data.id === created.data.id)
    expect(client.verifyWebhook(headersOf(event))).toEqual({ valid: true, kind: "subscription" })
  })

  it("refuses a changed body, a missing signature, and an event of another environment than the client's", async () => {
    const { ipn } = await paidIpn("hook-2")
    const tampered = Buffer.from(ipn.rawBody)
    tampered[tampered.indexOf("40")] = "5".charCodeAt(0)
    expect(client.verifyWebhook({ ...headersOf(ipn), rawBody: tampered })).toEqual({ valid: false, reason: "bad_signature" })
    expect(client.verifyWebhook({ ...headersOf(ipn), signature: undefined })).toEqual({ valid: false, reason: "missing_signature" })
    expect(client.verifyWebhook({ ...headersOf(ipn), signature: ["a", "b"] })).toEqual({ valid: false, reason: "missing_signature" })

    const production = demoClient(target, { environment: "production" })
    expect(production.verifyWebhook(headersOf(ipn))).toEqual({ valid: false, reason: "environment_mismatch" })
    expect(client.verifyWebhook({ ...headersOf(ipn), expectedEnvironment: "production" })).toEqual({ valid: false, reason: "environment_mismatch" })
    expect(client.verifyWebhook({ ...headersOf(ipn), environmentHeader: null })).toEqual({ valid: false, reason: "environment_mismatch" })
  })

  it("needs the webhook secret to verify at all", () => {
    const { webhook_secret: _unused, ...rest } = target.demo
    const withoutSecret = demoClient({ ...target, demo: { ...rest, webhook_secret: "" } })
    expect(() => withoutSecret.verifyWebhook({ rawBody: "{}", signature: "00", environmentHeader: "sandbox" })).toThrow(TypeError)
  })
})
