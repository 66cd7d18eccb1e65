import { describe, expect, it } from "vitest"
import { verifyWebhook } from "./verify-webhook.js"

// A signature computed outside the code under test:
// printf '%s' '{"status":"completed","data":{"trx_id":"SANDBOX_1","amount":100.5}}' | openssl dgst -sha256 -hmac 'whsec_test'
const secret = "whsec_test"
const body = '{"status":"completed","data":{"trx_id":"SANDBOX_1","amount":100.5}}'
const hex = "d6d2bbac1e7d2f71a6ab78a65931275437218a16ac29bb1f065afbb621ebf3aa"

describe("verifyWebhook (merchant side)", () => {
  it("accepts the signature bare or with sha256=, any hex case", () => {
    expect(verifyWebhook({ secret, rawBody: body, signature: hex })).toEqual({ valid: true })
    expect(verifyWebhook({ secret, rawBody: body, signature: `sha256=${hex}` })).toEqual({ valid: true })
    expect(verifyWebhook({ secret, rawBody: new TextEncoder().encode(body), signature: hex.toUpperCase() })).toEqual({ valid: true })
  })

  it("refuses a missing or wrong signature, a changed body, another secret", () => {
    expect(verifyWebhook({ secret, rawBody: body, signature: undefined })).toEqual({ valid: false, reason: "missing_signature" })
    expect(verifyWebhook({ secret, rawBody: body.replace("100.5", "1000.5"), signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
    expect(verifyWebhook({ secret: "whsec_other", rawBody: body, signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
    expect(verifyWebhook({ secret, rawBody: `${body} `, signature: hex })).toEqual({ valid: false, reason: "bad_signature" })
  })

  it("refuses a sandbox delivery where production is expected", () => {
    expect(verifyWebhook({ secret, rawBody: body, signature: hex, environmentHeader: "sandbox", expectedEnvironment: "production" }))
      .toEqual({ valid: false, reason: "environment_mismatch" })
    expect(verifyWebhook({ secret, rawBody: body, signature: hex, environmentHeader: "production", expectedEnvironment: "production" }))
      .toEqual({ valid: true })
  })
})
