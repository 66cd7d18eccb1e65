import { describe, expect, it } from "vitest"
import { expectError, expectJson } from "./assertions.js"
import { merchantCaller, type MerchantCaller } from "./fixtures.js"
import { INITIATE } from "./payment-fixtures.js"
import { rawExchange, type RawExchange } from "./raw-socket.js"
import { REFUND } from "./refund-fixtures.js"
import { adminRequest, nowSeconds, rawRequest, sign, type HttpResult, type Target, targetPath } from "./signing.js"

const MIB = 1024 * 1024
const TOO_LARGE = { status: 413, errorCode: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 1 MiB.", errors: {} }
const UNAUTHORIZED = { status: 401, errorCode: "UNAUTHORIZED", message: "A valid admin bearer token is required.", errors: {} }
const NOT_FOUND = { status: 404, errorCode: "NOT_FOUND", errors: {} }
const UNSUPPORTED = {
  status: 415,
  errorCode: "UNSUPPORTED_MEDIA_TYPE",
  message: "The request body must be sent as application/json.",
  errors: { "Content-Type": ["The Content-Type header must be application/json."] }
}

/** A raw exchange seen as the suite's usual result, so the 7.3 assertions apply to it. */
const asResult = (exchange: RawExchange): HttpResult => ({
  status: exchange.status,
  headers: exchange.headers,
  text: exchange.body,
  json: () => JSON.parse(exchange.body)
})

const expectMethodNotAllowed = (response: HttpResult, allow: string) => {
  expectError(response, { status: 405, errorCode: "METHOD_NOT_ALLOWED", errors: {} })
  expect(response.headers["allow"]).toBe(allow)
}

const NON_JSON_TYPES: ReadonlyArray<string | undefined> = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/jsonp",
  undefined
]

/** The HTTP edge itself: oversized uploads, methods, media types, unknown admin paths, response headers. */
export const edgeCases = (target: () => Target) =>
  describe("HTTP edge", () => {
    it("answers every one of 50 uploads of 3 MiB with Connection: close with its 413, then closes cleanly", async () => {
      const body = Buffer.alloc(3 * MIB, "x")
      const outcomes: Array<string> = []
      for (let upload = 0; upload < 50; upload++) {
        const exchange = await rawExchange(target().baseUrl, {
          method: "POST",
          path: "/admin/v1/merchants",
          headers: {
            authorization: `Bearer ${target().adminToken}`,
            "content-type": "application/json",
            "content-length": String(body.length),
            connection: "close"
          },
          body
        })
        outcomes.push(`${exchange.status}${exchange.error === undefined ? "" : ` ${exchange.error}`}${exchange.closed ? "" : " left open"}`)
        if (exchange.status === 413) expectError(asResult(exchange), TOO_LARGE)
      }
      expect(outcomes).toEqual(Array.from({ length: 50 }, () => "413"))
    })

    it("answers an oversized chunked upload with its 413 and closes the connection", async () => {
      const exchange = await rawExchange(target().baseUrl, {
        method: "POST",
        path: "/admin/v1/merchants",
        headers: { authorization: `Bearer ${target().adminToken}`, "content-type": "application/json", "transfer-encoding": "chunked" },
        body: Buffer.alloc(3 * MIB, "x"),
        chunked: true
      })
      expect([exchange.error, exchange.closed]).toEqual([undefined, true])
      expectError(asResult(exchange), TOO_LARGE)
    })

    it("delivers any refusal of a large upload (401, 404), not a reset", async () => {
      const body = Buffer.alloc(2 * MIB, "x")
      const headers = { "content-type": "application/json", "content-length": String(body.length), connection: "close" }
      const refused = await rawExchange(target().baseUrl, { method: "POST", path: "/admin/v1/merchants", headers, body })
      expect(refused.error).toBeUndefined()
      expectError(asResult(refused), UNAUTHORIZED)
      const unknown = await rawExchange(target().baseUrl, { method: "POST", path: "/no-such-path", headers, body })
      expect(unknown.error).toBeUndefined()
      expectError(asResult(unknown), NOT_FOUND)
    })

    it("answers a known path asked with another method 405, with Allow listing what it answers", async () => {
      const { baseUrl } = target()
      expectMethodNotAllowed(await rawRequest({ baseUrl }, { method: "GET", path: INITIATE }), "POST")
      expectMethodNotAllowed(await rawRequest({ baseUrl }, { method: "PUT", path: REFUND }), "POST")
      expectMethodNotAllowed(await rawRequest({ baseUrl }, { method: "DELETE", path: "/api/v1/site-info" }), "GET, HEAD")
      expectMethodNotAllowed(await rawRequest({ baseUrl }, { method: "POST", path: "/api/v1/verify-payment/SANDBOX_X" }), "GET, HEAD")
      expectMethodNotAllowed(await adminRequest(target(), "DELETE", "/settings"), "GET, HEAD, PATCH")
      expectMethodNotAllowed(await adminRequest(target(), "PUT", "/merchants/1"), "GET, HEAD, PATCH")
      expectError(await rawRequest({ baseUrl }, { method: "GET", path: "/api/v1/no-such-endpoint" }), NOT_FOUND)
    })

    it("checks the admin token before saying whether an admin path exists", async () => {
      const { baseUrl, adminToken } = target()
      for (const [method, path] of [["GET", "/admin/v1/no-such-thing"], ["DELETE", "/admin/v1/settings"], ["GET", "/admin/v1"]] as const) {
        expectError(await rawRequest({ baseUrl }, { method, path }), UNAUTHORIZED)
        expectError(await rawRequest({ baseUrl }, { method, path, headers: { authorization: "Bearer wrong" } }), UNAUTHORIZED)
        const known = await rawRequest({ baseUrl }, { method, path, headers: { authorization: `Bearer ${adminToken}` } })
        expect(known.status).toBe(method === "DELETE" ? 405 : 404)
      }
    })

    it.each(NON_JSON_TYPES.map((type) => [type ?? "no Content-Type", type]))(
      "refuses a correctly signed body sent as %s with 415, before creating anything",
      async (_, type) => {
        const caller = await merchantCaller(target())
        const body = JSON.stringify({
          payment_amount: 10, currency_code: "USD", ref_trx: "media-type", description: "x",
          success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/c", ipn_url: "https://shop.example/ipn"
        })
        expectError(await signedPostAs(target(), caller, INITIATE, body, type), UNSUPPORTED)
        expectError(await signedPostAs(target(), caller, REFUND, "{}", type), UNSUPPORTED)
        expectError(await adminRequestAs(target(), "POST", "/merchants", '{"name":"media type"}', type), UNSUPPORTED)
        expectError(await adminRequestAs(target(), "PATCH", "/settings", '{"site_name":"media type"}', type), UNSUPPORTED)
      }
    )

    it("accepts application/json with a charset, and a bodiless POST without any Content-Type", async () => {
      const caller = await merchantCaller(target())
      const refund = await caller.call({ method: "POST", path: REFUND, body: "{}", headers: { "content-type": "application/json; charset=utf-8" } })
      expect(refund.status).toBe(422)
      expect(refund.json().error_code).not.toBe("UNSUPPORTED_MEDIA_TYPE")
      const noBody = await rawRequest(target(), { method: "POST", path: "/admin/v1/merchants", headers: { authorization: `Bearer ${target().adminToken}` } })
      expectError(noBody, { status: 422, errorCode: "VALIDATION_FAILED", fields: ["name"] })
    })

    it("asks for the admin token before judging the media type", async () => {
      const response = await rawRequest(target(), { method: "POST", path: "/admin/v1/merchants", headers: { "content-type": "text/plain" }, body: "x" })
      expectError(response, UNAUTHORIZED)
    })

    it("sends X-Content-Type-Options: nosniff with every JSON answer", async () => {
      const { baseUrl } = target()
      const answers = [
        await adminRequest(target(), "GET", "/settings"),
        await rawRequest({ baseUrl }, { method: "GET", path: "/api/v1/site-info" }),
        await rawRequest({ baseUrl }, { method: "GET", path: "/no-such-path" }),
        await rawRequest({ baseUrl }, { method: "GET", path: "/healthz" })
      ]
      for (const answer of answers) {
        expectJson(answer)
        expect(answer.headers["x-content-type-options"], answer.text).toBe("nosniff")
      }
    })

    it("keeps a valid incoming X-Request-Id and makes one up otherwise", async () => {
      const { baseUrl } = target()
      const withId = (id: string | undefined) =>
        rawRequest({ baseUrl }, { method: "GET", path: "/healthz", headers: id === undefined ? {} : { "x-request-id": id } })
      for (const id of ["abc-123", "trace:7f.x_Y", "a".repeat(128)]) expect((await withId(id)).headers["x-request-id"]).toBe(id)
      const made = await Promise.all([withId(undefined), withId(undefined), withId("a".repeat(129)), withId("has spaces"), withId("")])
      const ids = made.map((answer) => answer.headers["x-request-id"] ?? "")
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{1,128}$/)
      expect(ids).not.toContain("a".repeat(129))
      expect(new Set(ids).size).toBe(ids.length)
    })
  })

/** An admin call with a chosen Content-Type (none when undefined). */
const adminRequestAs = (target: Target, method: string, path: string, body: string, contentType: string | undefined) =>
  rawRequest(target, {
    method,
    path: `/admin/v1${path}`,
    headers: { authorization: `Bearer ${target.adminToken}`, ...(contentType === undefined ? {} : { "content-type": contentType }) },
    body
  })

/** A correctly signed merchant POST with a chosen Content-Type (none when undefined). */
const signedPostAs = (target: Target, caller: MerchantCaller, path: string, body: string, contentType: string | undefined) => {
  const timestamp = String(nowSeconds())
  const { credentials } = caller
  return rawRequest(target, {
    method: "POST",
    path,
    headers: {
      "x-environment": credentials.environment,
      "x-merchant-key": credentials.merchant_key,
      "x-api-key": credentials.api_key,
      "x-timestamp": timestamp,
      "x-signature": sign({ secret: credentials.client_secret, timestamp, method: "POST", pathWithQuery: targetPath(target, path), body }),
      ...(contentType === undefined ? {} : { "content-type": contentType })
    },
    body
  })
}
