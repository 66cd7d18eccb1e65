import { IncomingMessage } from "node:http"
import { Socket } from "node:net"
import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { drainUnreadBody } from "./body-drain.js"

/** A Node request still being received (not complete), as a platform request wrapping it. */
const receiving = (headers: Record<string, string>) => {
  const incoming = new IncomingMessage(new Socket())
  incoming.headers = headers
  return { incoming, request: { headers, source: incoming } as unknown as HttpServerRequest.HttpServerRequest }
}

describe("draining an unread body before answering", () => {
  it("answers a request that declares no body at once, even before Node marks it complete", async () => {
    const { incoming, request } = receiving({ host: "x" })
    const response = HttpServerResponse.empty({ status: 204 })
    expect(await Effect.runPromise(drainUnreadBody(request, response))).toBe(response)
    expect(incoming.listenerCount("data")).toBe(0)
  })

  it("reads and discards a declared body nobody read, then answers", async () => {
    const { incoming, request } = receiving({ host: "x", "content-length": "5" })
    const response = HttpServerResponse.empty({ status: 401 })
    const answered = Effect.runPromise(drainUnreadBody(request, response))
    incoming.push(Buffer.from("hello"))
    incoming.push(null)
    expect(await answered).toBe(response)
  })
})
