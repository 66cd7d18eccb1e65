import { describe, expect, it } from "vitest"
import { signStandardWebhook, standardWebhookSecret, verifyStandardWebhook } from "./standard-webhook-signature.js"

const SECRET = "whsec_test_secret"
const BODY = '{"event":"payment.completed","data":{"amount":10.5}}'
const ID = "0b6c1f0e-7a1d-4b55-9a53-3d1f1b9e2c11"
const AT = 1_900_000_000

const check = (overrides: Partial<Parameters<typeof verifyStandardWebhook>[0]> = {}) =>
  verifyStandardWebhook({
    secret: SECRET, rawBody: BODY, id: ID, timestamp: String(AT), signature: signStandardWebhook(SECRET, ID, AT, BODY), nowSeconds: AT,
    ...overrides
  })

describe("Standard Webhooks signatures", () => {
  it("signs id, timestamp and body as v1 and base64 (openssl agrees)", () => {
    // printf '%s' 'ID.1900000000.BODY' | openssl dgst -sha256 -hmac 'whsec_test_secret' -binary | base64
    expect(signStandardWebhook(SECRET, ID, AT, BODY)).toBe("v1,DiVxkfDOmtaB/X+ZgS+CmrknHt5vjOZ8sKOQUtIGmoQ=")
    expect(signStandardWebhook(SECRET, ID, AT, new TextEncoder().encode(BODY))).toBe(signStandardWebhook(SECRET, ID, AT, BODY))
  })

  it("accepts its own signature, and one among several (a rotation's)", () => {
    expect(check()).toBe("valid")
    expect(check({ signature: `${signStandardWebhook("whsec_old", ID, AT, BODY)} ${signStandardWebhook(SECRET, ID, AT, BODY)}` })).toBe("valid")
  })

  it("refuses another body, id, timestamp or secret", () => {
    expect(check({ rawBody: BODY.replace("10.5", "105") })).toBe("bad_signature")
    expect(check({ id: "another" })).toBe("bad_signature")
    expect(check({ secret: "whsec_other" })).toBe("bad_signature")
    expect(check({ signature: "v1,not-base64" })).toBe("bad_signature")
    expect(check({ signature: signStandardWebhook(SECRET, ID, AT, BODY).replace("v1,", "v2,") })).toBe("bad_signature")
  })

  it("refuses a timestamp outside the tolerance, five minutes by default", () => {
    expect(check({ nowSeconds: AT + 300 })).toBe("valid")
    expect(check({ nowSeconds: AT + 301 })).toBe("stale_timestamp")
    expect(check({ nowSeconds: AT - 301 })).toBe("stale_timestamp")
    expect(check({ nowSeconds: AT + 3600, toleranceSeconds: 3600 })).toBe("valid")
    expect(check({ timestamp: "soon" })).toBe("stale_timestamp")
  })

  it("needs all three headers", () => {
    expect(check({ id: undefined })).toBe("missing_headers")
    expect(check({ timestamp: undefined })).toBe("missing_headers")
    expect(check({ signature: undefined })).toBe("missing_headers")
  })

  it("gives the secret in the whsec_ form: base64 of its own bytes", () => {
    expect(standardWebhookSecret("abc")).toBe("whsec_YWJj")
  })
})
