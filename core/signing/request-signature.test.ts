import { describe, expect, it } from "vitest"
import {
  checkTimestamp,
  DEFAULT_TIMESTAMP_TOLERANCE_SECONDS,
  signaturePayload,
  signRequest,
  verifyRequestSignature,
  verifyRequestSignatureOverTargets,
  type SignatureParts
} from "./request-signature.js"

const SECRET = "cs_test_secret"
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

const postJson: SignatureParts = {
  timestamp: "1700000000",
  method: "POST",
  pathWithQuery: "/api/v1/initiate-payment?x=1",
  rawBody: '{"amount":"10.50","currency":"USD"}'
}
// printf '%s' '1700000000.POST./api/v1/initiate-payment?x=1.{"amount":"10.50","currency":"USD"}' | openssl dgst -sha256 -hmac 'cs_test_secret'
const POST_JSON_HEX = "dac5606e27ecf5d4f68aeb7f9018df530fedeedb42762fc4bf67c21230e206ba"

const getWithQuery: SignatureParts = {
  timestamp: "1700000000",
  method: "GET",
  pathWithQuery: "/api/v1/payments/SANDBOX_ABC?status=paid&page=2",
  rawBody: ""
}
// printf '%s' '1700000000.GET./api/v1/payments/SANDBOX_ABC?status=paid&page=2.' | openssl dgst -sha256 -hmac 'cs_test_secret'
const GET_HEX = "bd0c5bc2abf2bd263f2486762ffc277895dd62a97d59890795e12893df20fcfd"

const nonAscii: SignatureParts = {
  timestamp: "1700000000",
  method: "POST",
  pathWithQuery: "/api/v1/initiate-payment",
  rawBody: '{"name":"Zoë Ñúñez","note":"€5 — 東京"}'
}
// printf '%s' '1700000000.POST./api/v1/initiate-payment.{"name":"Zoë Ñúñez","note":"€5 — 東京"}' | openssl dgst -sha256 -hmac 'cs_test_secret'
const NON_ASCII_HEX = "c8013bc38c41b4e35d66b0b99d2fc507c41011d5600201da03682f5317324b6d"

const invalidUtf8: SignatureParts = {
  timestamp: "1700000000",
  method: "POST",
  pathWithQuery: "/upload",
  rawBody: Uint8Array.from([0xff, 0xfe, 0x00, 0x80])
}
// printf '1700000000.POST./upload.\xff\xfe\x00\x80' | openssl dgst -sha256 -hmac 'cs_test_secret'
const INVALID_UTF8_HEX = "632afb63e2796f7075267a9416778bdfdf169571b54ae092e54d3e9f1bc7356f"

describe("signaturePayload", () => {
  it("joins the four parts with dots", () => {
    expect(decode(signaturePayload(postJson))).toBe(
      '1700000000.POST./api/v1/initiate-payment?x=1.{"amount":"10.50","currency":"USD"}'
    )
  })

  it("ends with a dot for an empty body", () => {
    expect(decode(signaturePayload(getWithQuery))).toBe("1700000000.GET./api/v1/payments/SANDBOX_ABC?status=paid&page=2.")
  })

  it("upper-cases the method", () => {
    expect(signaturePayload({ ...postJson, method: "post" })).toEqual(signaturePayload(postJson))
  })

  it("keeps body bytes that are not valid UTF-8 exactly", () => {
    const payload = signaturePayload(invalidUtf8)
    expect(Array.from(payload.slice(-4))).toEqual([0xff, 0xfe, 0x00, 0x80])
    expect(payload.length).toBe("1700000000.POST./upload.".length + 4)
  })
})

describe("signRequest", () => {
  it.each([
    ["POST with a JSON body", postJson, POST_JSON_HEX],
    ["GET with a query and an empty body", getWithQuery, GET_HEX],
    ["non-ASCII UTF-8 body", nonAscii, NON_ASCII_HEX],
    ["body that is not valid UTF-8", invalidUtf8, INVALID_UTF8_HEX]
  ])("matches openssl: %s", (_name, parts, hex) => {
    expect(signRequest(SECRET, parts)).toBe(`sha256=${hex}`)
  })

  it("signs a string body and its UTF-8 bytes identically", () => {
    const bytes = { ...nonAscii, rawBody: new TextEncoder().encode(nonAscii.rawBody as string) }
    expect(signRequest(SECRET, bytes)).toBe(`sha256=${NON_ASCII_HEX}`)
  })
})

describe("verifyRequestSignature", () => {
  it("accepts the prefixed form, bare hex and upper-case hex", () => {
    expect(verifyRequestSignature(SECRET, postJson, `sha256=${POST_JSON_HEX}`)).toBe(true)
    expect(verifyRequestSignature(SECRET, postJson, POST_JSON_HEX)).toBe(true)
    expect(verifyRequestSignature(SECRET, postJson, POST_JSON_HEX.toUpperCase())).toBe(true)
    expect(verifyRequestSignature(SECRET, postJson, `sha256=${POST_JSON_HEX.toUpperCase()}`)).toBe(true)
    expect(verifyRequestSignature(SECRET, postJson, `SHA256=${POST_JSON_HEX}`)).toBe(true)
    expect(verifyRequestSignature(SECRET, invalidUtf8, INVALID_UTF8_HEX)).toBe(true)
  })

  it("rejects the wrong secret, body, path, method or timestamp", () => {
    const header = `sha256=${POST_JSON_HEX}`
    expect(verifyRequestSignature("other_secret", postJson, header)).toBe(false)
    expect(verifyRequestSignature(SECRET, { ...postJson, rawBody: '{"amount":"10.51","currency":"USD"}' }, header)).toBe(false)
    expect(verifyRequestSignature(SECRET, { ...postJson, rawBody: '{"amount": "10.50","currency":"USD"}' }, header)).toBe(false)
    expect(verifyRequestSignature(SECRET, { ...postJson, pathWithQuery: "/api/v1/initiate-payment?x=2" }, header)).toBe(false)
    expect(verifyRequestSignature(SECRET, { ...postJson, method: "PUT" }, header)).toBe(false)
    expect(verifyRequestSignature(SECRET, { ...postJson, timestamp: "1700000001" }, header)).toBe(false)
  })

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["prefix only", "sha256="],
    ["truncated", `sha256=${POST_JSON_HEX.slice(0, 63)}`],
    ["truncated by a byte", POST_JSON_HEX.slice(0, 62)],
    ["too long", `${POST_JSON_HEX}00`],
    ["non-hex", `sha256=${"z".repeat(64)}`],
    ["valid hex then garbage", `${POST_JSON_HEX.slice(0, 62)}zz`],
    ["surrounding whitespace", ` sha256=${POST_JSON_HEX} `],
    ["another algorithm", `sha512=${POST_JSON_HEX}`],
    ["two values", `sha256=${POST_JSON_HEX},sha256=${POST_JSON_HEX}`],
    ["huge", "a".repeat(100_000)]
  ])("rejects a %s header without throwing", (_name, header) => {
    expect(verifyRequestSignature(SECRET, postJson, header)).toBe(false)
  })
})

describe("verifyRequestSignatureOverTargets", () => {
  // A kit under /payments: the client called /payments/api/v1/initiate-payment?x=1 and may have
  // signed that, or the spec's path relative to its base URL, /api/v1/initiate-payment?x=1.
  const { pathWithQuery: relative, ...rest } = postJson
  const targets = [`/payments${relative}`, relative]

  it("accepts a signature over the full path or over the path relative to the base path", () => {
    expect(verifyRequestSignatureOverTargets(SECRET, rest, targets, `sha256=${POST_JSON_HEX}`)).toBe(true)
    const overFull = signRequest(SECRET, { ...postJson, pathWithQuery: `/payments${relative}` })
    expect(verifyRequestSignatureOverTargets(SECRET, rest, targets, overFull)).toBe(true)
    // Either target alone accepts only its own form.
    expect(verifyRequestSignatureOverTargets(SECRET, rest, [relative], overFull)).toBe(false)
    expect(verifyRequestSignatureOverTargets(SECRET, rest, [`/payments${relative}`], `sha256=${POST_JSON_HEX}`)).toBe(false)
  })

  it("refuses a signature over any other path, and every other change, under either form", () => {
    for (const pathWithQuery of ["/other/api/v1/initiate-payment?x=1", "/payments/api/v1/initiate-payment", "/v1/initiate-payment?x=1"]) {
      expect(verifyRequestSignatureOverTargets(SECRET, rest, targets, signRequest(SECRET, { ...postJson, pathWithQuery }))).toBe(false)
    }
    const header = `sha256=${POST_JSON_HEX}`
    expect(verifyRequestSignatureOverTargets("other_secret", rest, targets, header)).toBe(false)
    expect(verifyRequestSignatureOverTargets(SECRET, { ...rest, method: "PUT" }, targets, header)).toBe(false)
    expect(verifyRequestSignatureOverTargets(SECRET, { ...rest, timestamp: "1700000001" }, targets, header)).toBe(false)
    expect(verifyRequestSignatureOverTargets(SECRET, { ...rest, rawBody: "{}" }, targets, header)).toBe(false)
    expect(verifyRequestSignatureOverTargets(SECRET, rest, targets, undefined)).toBe(false)
    expect(verifyRequestSignatureOverTargets(SECRET, rest, [], header)).toBe(false)
  })
})

describe("checkTimestamp", () => {
  const now = 1_700_000_000
  const check = (header: string | undefined) =>
    checkTimestamp({ header, nowSeconds: now, toleranceSeconds: DEFAULT_TIMESTAMP_TOLERANCE_SECONDS })

  it("defaults the tolerance to 300 seconds", () => {
    expect(DEFAULT_TIMESTAMP_TOLERANCE_SECONDS).toBe(300)
  })

  it("accepts the current time", () => {
    expect(check("1700000000")).toEqual({ _tag: "Valid", timestamp: now })
  })

  it("reports a missing header", () => {
    expect(check(undefined)).toEqual({ _tag: "Missing" })
  })

  it.each(["", "12a", "-5", "+5", "1.5", "1e9", "0x10", " 1700000000", "1700000000 ", "1_700_000_000", "1".repeat(13), "9".repeat(400)])(
    "reports %j as malformed",
    (header) => {
      expect(check(header)).toEqual({ _tag: "Malformed" })
    }
  )

  it("accepts exactly the tolerance on both sides", () => {
    expect(check(String(now - 300))).toEqual({ _tag: "Valid", timestamp: now - 300 })
    expect(check(String(now + 300))).toEqual({ _tag: "Valid", timestamp: now + 300 })
  })

  it("reports one second beyond the tolerance as stale, past and future", () => {
    expect(check(String(now - 301))).toEqual({ _tag: "Stale", skewSeconds: 301 })
    expect(check(String(now + 301))).toEqual({ _tag: "Stale", skewSeconds: -301 })
  })

  it("reports far-off timestamps as stale", () => {
    expect(check("0")).toEqual({ _tag: "Stale", skewSeconds: now })
    expect(check("999999999999")).toMatchObject({ _tag: "Stale" })
  })

  it("honours a custom tolerance", () => {
    expect(checkTimestamp({ header: String(now - 10), nowSeconds: now, toleranceSeconds: 5 })).toEqual({
      _tag: "Stale",
      skewSeconds: 10
    })
  })
})
