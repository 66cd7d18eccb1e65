import { describe, expect, it } from "vitest"
import { expectError } from "./assertions.js"
import { rawExchange, type RawExchange } from "./raw-socket.js"
import type { HttpResult, Target } from "./signing.js"

const MIB = 1024 * 1024
const TOO_LARGE = { status: 413, errorCode: "PAYLOAD_TOO_LARGE", message: "The request body is larger than 1 MiB.", errors: {} }
const UNAUTHORIZED = { status: 401, errorCode: "UNAUTHORIZED", message: "A valid admin bearer token is required.", errors: {} }
const NOT_FOUND = { status: 404, errorCode: "NOT_FOUND", errors: {} }

/** A raw exchange seen as the suite's usual result, so the 7.3 assertions apply to it. */
const asResult = (exchange: RawExchange): HttpResult => ({
  status: exchange.status,
  headers: exchange.headers,
  text: exchange.body,
  json: () => JSON.parse(exchange.body)
})

/** The HTTP edge itself: oversized uploads. */
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
  })
