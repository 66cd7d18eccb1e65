import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { bounded, isSecretKey, maskNumbers, MAX_LOGGED_BODY_BYTES, REDACTED, redactBody } from "./request-log-redaction.js"

const CARD = "4111111111111111"

describe("request log redaction", () => {
  it("replaces every secret key's value, whatever its shape, and keeps every other byte as sent", () => {
    const text = '{"amount": 9999999999.99999999, "client_secret":"s3cr3t", "nested":{"apiKey":{"a":[1,2]},"Password":null},' +
      '"list":[{"token":7}], "X-Api-Key":"k", "note":"ok"}'
    expect(redactBody(text)).toBe(
      '{"amount": 9999999999.99999999, "client_secret":"[REDACTED]", "nested":{"apiKey":"[REDACTED]","Password":"[REDACTED]"},' +
        '"list":[{"token":"[REDACTED]"}], "X-Api-Key":"[REDACTED]", "note":"ok"}'
    )
  })

  it("masks card and account numbers but their last 4, in strings and numbers, JSON or not", () => {
    expect(redactBody(`{"note":"card ${CARD} ok","pan":${CARD}}`)).toBe('{"note":"card ************1111 ok","pan":"************1111"}')
    expect(maskNumbers("4111 1111 1111 1111 and 4111-1111-1111-1111")).toBe("************1111 and ************1111")
    expect(maskNumbers("IBAN DE89370400440532013000 or GB82 WEST 1234 5698 7654 32")).toBe("IBAN ******************3000 or ******************5432")
    expect(redactBody(`password=hunter2&card=${CARD}&name=x`)).toBe(`password=${REDACTED}&card=************1111&name=x`)
  })

  it("leaves ids alone: uuids, references and short numbers", () => {
    for (const kept of ["00000000-0000-4000-8000-000000000001", "SANDBOX_01ARZ3NDEKTSV4RRFFQ69G5FAV", "ref_123456789012345", "12345678901", "amount 100.00"]) {
      expect(maskNumbers(kept)).toBe(kept)
    }
  })

  it("names secret keys whatever their case and separators", () => {
    for (const key of ["secret", "client_secret", "Password", "api_key", "X-Api-Key", "access_token", "iban", "card_number", "cvc"]) expect(isSecretKey(key)).toBe(true)
    for (const key of ["amount", "url", "events", "description", "ref_trx"]) expect(isSecretKey(key)).toBe(false)
  })

  it("reads the largest body accepted at once, JSON or not, however it is made", () => {
    const started = performance.now()
    for (const body of ["x".repeat(1024 * 1024), `a${"1".repeat(1024 * 1024 - 1)}`, JSON.stringify({ pad: "x".repeat(1024 * 1024 - 12) }), `k${"=".repeat(500_000)}`]) {
      const kept = redactBody(body)!
      expect(new TextEncoder().encode(kept).length).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES)
    }
    expect(performance.now() - started).toBeLessThan(2_000)
  })

  it("never leaves part of a card number where a text body is cut", () => {
    const kept = redactBody(`${"x ".repeat(4090)}card ${CARD} end`)!
    expect(kept).not.toMatch(/\d{5}/)
    expect(kept).toMatch(/…\[truncated \d+ bytes( to 8192)?\]$/)
  })

  it("redacts a key spelt with JSON escapes, and keeps a body with nothing to redact as sent", () => {
    expect(redactBody('{"client_\\u0073ecret":"s3cr3t","n":1}')).toBe('{"client_\\u0073ecret":"[REDACTED]","n":1}')
    const plain = '{ "success": true, "info": {"name": "Shop", "amount": "10.00", "id": "00000000-0000-4000-8000-000000000001"} }'
    expect(redactBody(plain)).toBe(plain)
  })

  it("keeps an empty body as none", () => {
    expect(redactBody("")).toBeNull()
    expect(redactBody(null)).toBeNull()
  })

  it("never shows a secret value or a card number, in any JSON document (property)", () => {
    const secretValue = fc.constantFrom("hunter2-secret", CARD)
    const document = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.string().filter((text) => !text.includes("hunter2") && !/\d{4}/.test(text)),
        fc.integer({ min: -999, max: 999 }),
        fc.constant(null),
        fc.array(tie("value"), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom("a", "b", "note", "client_secret", "api_key"), tie("value"), { maxKeys: 3 }),
        fc.record({ password: secretValue }),
        fc.record({ note: fc.constant(`card ${CARD}`) })
      )
    })).value
    fc.assert(fc.property(document, fc.boolean(), (value, spaced) => {
      const kept = redactBody(JSON.stringify(value, null, spaced ? 2 : undefined))
      if (kept === null) return
      expect(kept).not.toContain("hunter2")
      expect(kept).not.toContain(CARD)
      expect(() => JSON.parse(kept)).not.toThrow()
    }))
  })

  it("bounds every body to 8 KiB of UTF-8 without cutting a character, saying it was cut (property)", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 6000 }), (text) => {
      const kept = redactBody(text)
      if (kept === null) return
      expect(new TextEncoder().encode(kept).length).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES)
      expect(kept).not.toContain("\uFFFD")
    }))
    const long = JSON.stringify({ note: "é".repeat(10_000) })
    const kept = bounded(long)
    expect(new TextEncoder().encode(kept).length).toBeLessThanOrEqual(MAX_LOGGED_BODY_BYTES)
    expect(kept).toMatch(/…\[truncated 20011 bytes to 8192\]$/)
  })
})
