import { describe, expect, it } from "vitest"
import { signWebhook, verifyWebhookSignature } from "./webhook-signature.js"

const SECRET = "whsec_test_secret"
const BODY = '{"event":"payment.completed","trx_id":"SANDBOX_0000000000000000000000000A"}'
// printf '%s' '{"event":"payment.completed","trx_id":"SANDBOX_0000000000000000000000000A"}' | openssl dgst -sha256 -hmac 'whsec_test_secret'
const BODY_HEX = "9e381e6cf6c6524f3ed2165e5bf31d12929e195dc51ef94f448ff2ad1387a778"

describe("signWebhook", () => {
  it("is bare lower-case hex matching openssl", () => {
    expect(signWebhook(SECRET, BODY)).toBe(BODY_HEX)
    expect(signWebhook(SECRET, new TextEncoder().encode(BODY))).toBe(BODY_HEX)
  })
})

describe("verifyWebhookSignature", () => {
  it("accepts with or without the prefix, in either hex case", () => {
    expect(verifyWebhookSignature(SECRET, BODY, BODY_HEX)).toBe(true)
    expect(verifyWebhookSignature(SECRET, BODY, `sha256=${BODY_HEX}`)).toBe(true)
    expect(verifyWebhookSignature(SECRET, BODY, BODY_HEX.toUpperCase())).toBe(true)
  })

  it("rejects the wrong secret or body", () => {
    expect(verifyWebhookSignature("whsec_other", BODY, BODY_HEX)).toBe(false)
    expect(verifyWebhookSignature(SECRET, `${BODY} `, BODY_HEX)).toBe(false)
  })

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["truncated", BODY_HEX.slice(0, 63)],
    ["non-hex", "g".repeat(64)],
    ["prefix only", "sha256="]
  ])("rejects a %s signature without throwing", (_name, header) => {
    expect(verifyWebhookSignature(SECRET, BODY, header)).toBe(false)
  })
})
