import { describe, expect, it } from "vitest"
import { expectError, expectInvalidCredentials, expectOk } from "./assertions.js"
import { createMerchant, merchantCaller, readSettings } from "./fixtures.js"
import { adminRequest, rawRequest, type HttpResult, type Target } from "./signing.js"

const MIB = 1024 * 1024
const TOO_LARGE = { status: 413, errorCode: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 1 MiB.", errors: {} }
const STATUS_INVALID = "The selected status is invalid; it must be one of: pending, approved, rejected, disabled, suspended."
const NOT_AN_OBJECT = { status: 422, errorCode: "VALIDATION_FAILED", errors: { body: ["The request body must be a JSON object."] } }

const expectMalformed = (response: HttpResult) =>
  expectError(response, { status: 400, errorCode: "MALFORMED_JSON", message: "The request body is not valid JSON.", fields: ["body"] })

/** A valid merchant-creation body padded with an ignored field to exactly `bytes` bytes. */
const paddedBody = (bytes: number): string => {
  const head = '{"name":"conformance padded","pad":"'
  const tail = '"}'
  return `${head}${"x".repeat(bytes - head.length - tail.length)}${tail}`
}

/** Whatever the input, the host answers with a 4xx and the 7.3 body, never a 5xx. */
export const badInputCases = (target: () => Target) =>
  describe("bad input", () => {
    it.each([
      ["truncated", '{"name":'],
      ["unquoted key", '{name:"x"}'],
      ["single quotes", "{'name':'x'}"],
      ["trailing comma", '{"name":"x",}'],
      ["two documents", '{"name":"x"}{"name":"y"}'],
      ["NaN", '{"name":"x","fee_percent":NaN}'],
      ["bare word", "hello"],
      ["comment", '{"name":"x"} // note']
    ])("answers 400 MALFORMED_JSON for a body that is not JSON (%s)", async (_, body) => {
      expectMalformed(await adminRequest(target(), "POST", "/merchants", body))
    })

    it("answers 400 MALFORMED_JSON for duplicate keys, which would otherwise be resolved silently", async () => {
      expectMalformed(await adminRequest(target(), "POST", "/merchants", '{"name":"first","name":"second"}'))
      const merchant = await createMerchant(target())
      expectMalformed(await adminRequest(target(), "PATCH", `/merchants/${merchant.id}`, '{"status":"approved","status":"suspended"}'))
      expect(expectOk(await adminRequest(target(), "GET", `/merchants/${merchant.id}`)).status).toBe("pending")
    })

    it("answers 400 MALFORMED_JSON for a body that is not UTF-8", async () => {
      const body = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
      const response = await rawRequest(target(), {
        method: "POST",
        path: "/admin/v1/merchants",
        headers: { authorization: `Bearer ${target().adminToken}`, "content-type": "application/json" },
        body
      })
      expectMalformed(response)
    })

    it.each([["an array", "[]"], ["an array of objects", '[{"name":"x"}]'], ["a string", '"name"'], ["a number", "42"], ["null", "null"], ["true", "true"]])(
      "answers 422 naming `body` when the JSON is %s, not an object",
      async (_, body) => {
        expectError(await adminRequest(target(), "POST", "/merchants", body), NOT_AN_OBJECT)
        expectError(await adminRequest(target(), "PATCH", "/settings", body), NOT_AN_OBJECT)
      }
    )

    it.each([
      ["name", 123, "The name field must be a string."],
      ["name", true, "The name field must be a string."],
      ["name", { first: "x" }, "The name field must be a string."],
      ["name", ["x"], "The name field must be a string."],
      ["name", "", "The name field is required."],
      ["name", "x".repeat(101), "The name field must not be greater than 100 characters."],
      ["status", 1, STATUS_INVALID],
      ["status", "Approved", STATUS_INVALID],
      ["fee_percent", true, "The fee percent field must be a number."],
      ["fee_fixed", [1], "The fee fixed field must be a number."]
    ])("answers 422 naming %s when it is %j", async (field, value, message) => {
      const body = { name: "conformance field types", [field]: value }
      const response = await adminRequest(target(), "POST", "/merchants", body)
      const error = expectError(response, { status: 422, errorCode: field.startsWith("fee_") ? "INVALID_AMOUNT" : "VALIDATION_FAILED", message: "The given data was invalid." })
      expect(error.errors).toEqual({ [field]: [message] })
    })

    it("reports every bad field at once, and a missing required field", async () => {
      const all = expectError(await adminRequest(target(), "POST", "/merchants", { name: 7, status: "open", fee_percent: true }), { status: 422, errorCode: "INVALID_AMOUNT" })
      expect(Object.keys(all.errors).sort()).toEqual(["fee_percent", "name", "status"])
      const empty = expectError(await adminRequest(target(), "POST", "/merchants", "{}"), { status: 422, errorCode: "VALIDATION_FAILED" })
      expect(empty.errors).toEqual({ name: ["The name field is required."] })
      const none = expectError(await adminRequest(target(), "POST", "/merchants"), { status: 422, errorCode: "VALIDATION_FAILED" })
      expect(none.errors).toEqual({ name: ["The name field is required."] })
    })

    it("accepts a body of exactly 1 MiB and refuses one byte more with 413 PAYLOAD_TOO_LARGE", async () => {
      expectOk(await adminRequest(target(), "POST", "/merchants", paddedBody(MIB)), 201)
      expectError(await adminRequest(target(), "POST", "/merchants", paddedBody(MIB + 1)), TOO_LARGE)
      expectError(await adminRequest(target(), "POST", "/merchants", paddedBody(3 * MIB)), TOO_LARGE)
    })

    it("refuses an over-size body sent chunked, without a Content-Length, with 413", async () => {
      const response = await rawRequest(target(), {
        method: "POST",
        path: "/admin/v1/merchants",
        headers: { authorization: `Bearer ${target().adminToken}`, "content-type": "application/json" },
        body: paddedBody(MIB + 1),
        chunked: true
      }).catch((error: unknown) => {
        throw new Error(`expected a 413 answer, but the connection failed without one: ${String(error)}`)
      })
      expectError(response, TOO_LARGE)
    })

    it("refuses an over-size body on a merchant endpoint with 413, even correctly signed", async () => {
      const caller = await merchantCaller(target())
      expectError(await caller.call({ body: "x".repeat(MIB + 1) }), TOO_LARGE)
      expectOk(await caller.call({ body: "x".repeat(MIB) }))
    })

    it("answers odd header values on a merchant endpoint with a 401, not a 5xx", async () => {
      const caller = await merchantCaller(target())
      expectInvalidCredentials(await caller.call({ merchantKey: `test_${"k".repeat(6000)}` }))
      expectInvalidCredentials(await caller.call({ apiKey: `test_${"\u00e9".repeat(100)}` }))
      expectInvalidCredentials(await caller.call({ merchantKey: "test_mk_' OR '1'='1", apiKey: "test_ak_\"; DROP TABLE merchants; --" }))
      expect((await caller.call({ timestamp: "9".repeat(5000) })).status).toBe(401)
      expect((await caller.call({ signature: `sha256=${"f".repeat(10_000)}` })).status).toBe(401)
    })

    it("never answers 5xx to hostile bodies on any admin route", async () => {
      const merchant = await createMerchant(target())
      const wallet = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "sandbox" }), 201)
      const routes: ReadonlyArray<readonly [string, string]> = [
        ["POST", "/merchants"],
        ["PATCH", `/merchants/${merchant.id}`],
        ["POST", `/merchants/${merchant.id}/credentials`],
        ["PUT", `/merchants/${merchant.id}/currencies`],
        ["POST", `/merchants/${merchant.id}/wallets`],
        ["PATCH", `/wallets/${wallet.id}`],
        ["POST", `/wallets/${wallet.id}/adjustments`],
        ["PATCH", "/settings"]
      ]
      const bodies = [
        "[".repeat(100_000) + "]".repeat(100_000),
        '{"a":'.repeat(20_000) + "1" + "}".repeat(20_000),
        '{"name":"x","fee_percent":1e999999999,"fee_fixed":-1e-999999999,"amount":1e400,"reason":"r"}',
        `{"name":"x","amount":${"9".repeat(5000)},"reason":"r","currency_codes":[${'"USD",'.repeat(500)}"USD"]}`,
        '{"__proto__":{"admin":true},"constructor":{"prototype":{}},"name":"x"}',
        '{"name":"nul \\u0000 inside","reason":"nul \\u0000 inside","amount":1,"site_name":"nul \\u0000 inside"}',
        '{"name":"lone \\ud800 surrogate","reason":"lone \\ud800 surrogate","amount":1,"gateway_name":"lone \\ud800 surrogate"}',
        '{"status":null,"environment":null,"currency_code":"\\u0000","active":null,"currency_codes":["\\u0000"]}',
        '{"currency_codes":[1,2,3],"signature_tolerance_seconds":1e3,"rate_limit_per_minute":-0}'
      ]
      const settings = await readSettings(target())
      const serverErrors: Array<string> = []
      try {
        for (const [method, path] of routes) {
          for (const body of bodies) {
            const response = await adminRequest(target(), method, path, body)
            if (response.status >= 500) serverErrors.push(`${method} /admin/v1${path} ${body.slice(0, 120)} -> ${response.status} ${response.text}`)
            else if (response.status >= 400) expectError(response, { status: response.status, errorCode: response.json().error_code })
          }
        }
      } finally {
        // Some of these bodies are valid settings changes; put everything back.
        await adminRequest(target(), "PATCH", "/settings", settings)
      }
      expect(serverErrors).toEqual([])
    })
  })
