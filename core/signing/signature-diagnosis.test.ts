import { describe, expect, it } from "vitest"
import { hmacSha256Hex, sha256Hex } from "./hmac.js"
import { signaturePayloadAsWritten, signRequest, verifyRequestSignatureOverTargets } from "./request-signature.js"
import { diagnoseSignature, type FailedSignature, MAX_DIAGNOSED_BODY_BYTES, SIGNATURE_CAUSES } from "./signature-diagnosis.js"

const SECRET = "cs_test_sandbox_secret"
const PRODUCTION_SECRET = "cs_live_production_secret"
const NOW = 1_700_000_000
const TS = String(NOW)
const BODY = '{"payment_amount":"25.50","currency_code":"USD","ref_trx":"order-1"}'
const bytes = (text: string) => new TextEncoder().encode(text)

/** A POST under no base path, signed as the fields below say; each case changes what it needs. */
const failed = (changes: Partial<FailedSignature> & { readonly signedWith?: { path?: string; body?: string; method?: string; timestamp?: string; secret?: string } } = {}): FailedSignature => {
  const { signedWith = {}, ...rest } = changes
  const base: FailedSignature = {
    timestamp: TS,
    signature: undefined,
    method: "POST",
    accepted: ["/api/v1/initiate-payment?lang=en"],
    rawBody: bytes(BODY),
    nowSeconds: NOW,
    toleranceSeconds: 300,
    environment: "sandbox",
    clientSecret: SECRET,
    otherEnvironmentSecret: PRODUCTION_SECRET,
    publicBasePath: undefined,
    ...rest
  }
  const signature = `sha256=${hmacSha256Hex(signedWith.secret ?? SECRET, signaturePayloadAsWritten({
    timestamp: signedWith.timestamp ?? base.timestamp ?? "",
    method: signedWith.method ?? base.method,
    pathWithQuery: signedWith.path ?? base.accepted[0]!,
    rawBody: signedWith.body ?? base.rawBody
  }))}`
  return { ...base, signature: "signature" in rest ? rest.signature : signature }
}

const causeOf = (request: FailedSignature) => diagnoseSignature(request).cause

describe("diagnosing a refused request signature", () => {
  it("writes the canonical string with the body as its SHA-256, never the body or a secret", () => {
    const check = diagnoseSignature(failed({ signedWith: { secret: "someone-else" } }))
    expect(check.canonical).toBe(`${TS}.POST./api/v1/initiate-payment?lang=en.${sha256Hex(BODY)}`)
    for (const text of [check.canonical, check.explanation]) {
      expect(text).not.toContain(SECRET)
      expect(text).not.toContain(PRODUCTION_SECRET)
      expect(text).not.toContain("order-1")
    }
  })

  it("query_string_missing: signed without the query", () => {
    expect(causeOf(failed({ signedWith: { path: "/api/v1/initiate-payment" } }))).toBe("query_string_missing")
  })

  it("body_reserialized: signed the parsed body written again, compact, pretty or with sorted keys", () => {
    const sent = '{ "ref_trx": "order-1", "payment_amount": "25.50" }'
    const parsed = JSON.parse(sent) as Record<string, string>
    const sorted = { payment_amount: parsed.payment_amount, ref_trx: parsed.ref_trx }
    for (const signed of [JSON.stringify(parsed), JSON.stringify(parsed, null, 2), JSON.stringify(sorted), JSON.stringify(sorted, null, 2)]) {
      expect(causeOf(failed({ rawBody: bytes(sent), signedWith: { body: signed } })), signed).toBe("body_reserialized")
    }
  })

  it("stale_timestamp: outside the window either way, saying by how much", () => {
    const old = diagnoseSignature(failed({ timestamp: String(NOW - 301) }))
    expect(old.cause).toBe("stale_timestamp")
    expect(old.explanation).toContain("301 seconds behind")
    expect(diagnoseSignature(failed({ timestamp: String(NOW + 900) })).explanation).toContain("900 seconds ahead of")
  })

  it("missing_timestamp and malformed_timestamp", () => {
    expect(causeOf(failed({ timestamp: undefined }))).toBe("missing_timestamp")
    expect(causeOf(failed({ timestamp: String(NOW * 1000) }))).toBe("malformed_timestamp")
  })

  it("wrong_environment_secret: signed with the same merchant's other client secret, which it never shows", () => {
    const check = diagnoseSignature(failed({ signedWith: { secret: PRODUCTION_SECRET } }))
    expect(check.cause).toBe("wrong_environment_secret")
    expect(check.explanation).toContain("production client secret")
    expect(causeOf(failed({ otherEnvironmentSecret: undefined, signedWith: { secret: PRODUCTION_SECRET } }))).toBe("unknown")
  })

  it("base_path: signed with the public base path a proxy strips, or after /api/v1", () => {
    const behindProxy = diagnoseSignature(failed({ publicBasePath: "/payments", signedWith: { path: "/payments/api/v1/initiate-payment?lang=en" } }))
    expect(behindProxy.cause).toBe("base_path")
    expect(behindProxy.explanation).toContain("/payments/api/v1/initiate-payment?lang=en")
    expect(causeOf(failed({ signedWith: { path: "/initiate-payment?lang=en" } }))).toBe("base_path")
    const mounted = failed({
      accepted: ["/payments/api/v1/initiate-payment", "/api/v1/initiate-payment"],
      signedWith: { path: "/initiate-payment" }
    })
    expect(causeOf(mounted)).toBe("base_path")
  })

  it("method_case: signed a lower-case method", () => {
    expect(causeOf(failed({ signedWith: { method: "post" } }))).toBe("method_case")
  })

  it("timestamp_mismatch: signed a timestamp a second or two off the header", () => {
    expect(causeOf(failed({ signedWith: { timestamp: String(NOW - 1) } }))).toBe("timestamp_mismatch")
    expect(causeOf(failed({ signedWith: { timestamp: String(NOW + 2) } }))).toBe("timestamp_mismatch")
  })

  it("missing_signature and malformed_signature: absent, empty, base64, short, non-hex", () => {
    expect(causeOf(failed({ signature: undefined }))).toBe("missing_signature")
    expect(causeOf(failed({ signature: "" }))).toBe("missing_signature")
    const base64 = Buffer.from(hmacSha256Hex(SECRET, "x"), "hex").toString("base64")
    for (const bad of [base64, "sha256=abc", `sha256=${"zz".repeat(32)}`, `sha1=${"ab".repeat(32)}`]) {
      expect(causeOf(failed({ signature: bad })), bad).toBe("malformed_signature")
    }
  })

  it("unknown: nothing matches, and the explanation lists what to compare", () => {
    const check = diagnoseSignature(failed({ signedWith: { secret: "a stranger's secret" } }))
    expect(check.cause).toBe("unknown")
    expect(check.explanation).toContain("path with query")
    expect(check.explanation).toContain("SHA-256")
  })

  it("tries no near miss of a body above the limit", () => {
    const large = `{"note":"${"x".repeat(MAX_DIAGNOSED_BODY_BYTES)}"}`
    expect(causeOf(failed({ rawBody: bytes(large), signedWith: { path: "/api/v1/initiate-payment" } }))).toBe("unknown")
  })

  it("no alternative is a form the server accepts: a valid signature would never be diagnosed as a mistake", () => {
    const request = failed({ accepted: ["/payments/api/v1/site-info", "/api/v1/site-info"], method: "GET", rawBody: bytes("") })
    expect(verifyRequestSignatureOverTargets(SECRET, { timestamp: TS, method: "GET", rawBody: "" }, request.accepted, request.signature)).toBe(true)
    expect(signRequest(SECRET, { timestamp: TS, method: "GET", pathWithQuery: "/payments/api/v1/site-info", rawBody: "" })).toBe(request.signature)
    // Diagnosed anyway (as the authenticator never would), the exact form matches none of the near misses.
    expect(causeOf(request)).toBe("unknown")
  })

  it("every cause it can name is listed once", () => {
    expect(new Set(SIGNATURE_CAUSES).size).toBe(SIGNATURE_CAUSES.length)
  })
})
