import { describe, expect, it } from "vitest"
import { Webhook } from "standardwebhooks"
import { verifyWebhook, webhookKindOf } from "./verify-webhook.js"

// Signatures computed outside the code under test, e.g.
// printf '%s' "$body" | openssl dgst -sha256 -hmac 'whsec_test'
const webhookSecret = "whsec_test"
const clientSecret = "cs_test"
const secrets = { webhookSecret, clientSecret }
const body = '{"status":"completed","data":{"trx_id":"SANDBOX_1","amount":100.5}}'
const hex = "d6d2bbac1e7d2f71a6ab78a65931275437218a16ac29bb1f065afbb621ebf3aa"
// A refund event (spec 6.3) is signed with the client (API) secret, not the webhook secret.
const refundBody = '{"event":"payment.refunded","status":"refunded","data":{"original_trx_id":"SANDBOX_1","refunded_amount":25}}'
const refundHex = "55da94990f462139bbdbc076022501876b7d4b9492e361a15730bb08a758ffce"
const refundHexWithWebhookSecret = "a359288ef300423e41df71e2f4cf03b9d1b0583e0cd86270342f682801a3bdaf"

describe("verifyWebhook (merchant side)", () => {
  it("accepts a payment event's signature bare or with sha256=, any hex case", () => {
    expect(verifyWebhook({ ...secrets, rawBody: body, signature: hex })).toEqual({ valid: true, kind: "payment" })
    expect(verifyWebhook({ ...secrets, rawBody: body, signature: `sha256=${hex}` })).toEqual({ valid: true, kind: "payment" })
    expect(verifyWebhook({ ...secrets, rawBody: new TextEncoder().encode(body), signature: hex.toUpperCase() })).toEqual({ valid: true, kind: "payment" })
  })

  it("accepts a refund event signed with the client secret, and only that", () => {
    expect(verifyWebhook({ ...secrets, rawBody: refundBody, signature: refundHex })).toEqual({ valid: true, kind: "refund" })
    expect(verifyWebhook({ ...secrets, rawBody: new TextEncoder().encode(refundBody), signature: `sha256=${refundHex}` })).toEqual({ valid: true, kind: "refund" })
    expect(verifyWebhook({ ...secrets, rawBody: refundBody, signature: refundHexWithWebhookSecret })).toEqual({ valid: false, reason: "bad_signature" })
    // Nor is a payment event accepted under the client secret: each kind has exactly one key.
    expect(verifyWebhook({ webhookSecret: clientSecret, clientSecret: webhookSecret, rawBody: body, signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
  })

  it("refuses a missing or wrong signature, a changed body, another secret", () => {
    expect(verifyWebhook({ ...secrets, rawBody: body, signature: undefined })).toEqual({ valid: false, reason: "missing_signature" })
    expect(verifyWebhook({ ...secrets, rawBody: body, signature: "" })).toEqual({ valid: false, reason: "missing_signature" })
    expect(verifyWebhook({ ...secrets, rawBody: body.replace("100.5", "1000.5"), signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
    expect(verifyWebhook({ ...secrets, webhookSecret: "whsec_other", rawBody: body, signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
    expect(verifyWebhook({ ...secrets, rawBody: `${body} `, signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
    // Relabelling a payment event as a refund moves it to the other key: its signature no longer holds.
    expect(verifyWebhook({ ...secrets, rawBody: body.replace("completed", "refunded"), signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
  })

  it("takes a refund event's Standard form under the webhook secret as well, as the reference library signs it", () => {
    const at = new Date()
    const issued = "whsec_S5R03OW7qAbbywrhjZdmd3mdPx8d8sAU0XwT2ZqWC53q"
    const standard = (secret: string) => ({
      id: "evt_1", timestamp: String(Math.floor(at.getTime() / 1000)), signature: new Webhook(secret).sign("evt_1", at, refundBody), nowSeconds: Math.floor(at.getTime() / 1000)
    })
    const check = (signedWith: string) => verifyWebhook({ webhookSecret: issued, clientSecret, rawBody: refundBody, signature: undefined, standard: standard(signedWith) })
    expect(check(issued)).toEqual({ valid: true, kind: "refund" })
    expect(check(`whsec_${Buffer.from(clientSecret).toString("base64")}`)).toEqual({ valid: true, kind: "refund" })
    expect(check("whsec_S5R03OW7qAbbywrhjZdmd3mdPx8d8sAU0XwT2ZqWC53r")).toEqual({ valid: false, reason: "bad_signature" })
    // X-Signature stays the contract's: the client secret's alone.
    expect(verifyWebhook({ webhookSecret: issued, clientSecret, rawBody: refundBody, signature: refundHex })).toEqual({ valid: true, kind: "refund" })
  })

  it("refuses a body that is not a JSON object before choosing a key", () => {
    for (const rawBody of ["", "not json", "[1]", "null", new Uint8Array([0xff, 0xfe])]) {
      expect(verifyWebhook({ ...secrets, rawBody, signature: hex })).toEqual({ valid: false, reason: "malformed_body" })
    }
  })

  it("refuses a sandbox delivery where production is expected", () => {
    expect(verifyWebhook({ ...secrets, rawBody: body, signature: hex, environmentHeader: "sandbox", expectedEnvironment: "production" }))
      .toEqual({ valid: false, reason: "environment_mismatch" })
    expect(verifyWebhook({ ...secrets, rawBody: refundBody, signature: refundHex, environmentHeader: undefined, expectedEnvironment: "production" }))
      .toEqual({ valid: false, reason: "environment_mismatch" })
    expect(verifyWebhook({ ...secrets, rawBody: body, signature: hex, environmentHeader: "production", expectedEnvironment: "production" }))
      .toEqual({ valid: true, kind: "payment" })
  })

  it("reads the kind from `event`, else from `status`", () => {
    expect(webhookKindOf('{"event":"payment.refunded"}')).toBe("refund")
    expect(webhookKindOf('{"status":"refunded"}')).toBe("refund")
    for (const status of ["completed", "failed", "cancelled", "expired"]) {
      expect(webhookKindOf(`{"event":"payment.${status}","status":"${status}"}`)).toBe("payment")
    }
    for (const event of ["subscription.activated", "subscription.renewed", "subscription.past_due", "subscription.cancelled", "invoice.created"]) {
      expect(webhookKindOf(`{"event":"${event}","status":"active"}`)).toBe("subscription")
    }
  })
})
