import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as Runtime from "effect/Runtime"
import { describe, expect, it } from "vitest"
import { makeWebHandler } from "./web-handler.js"

const echo = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  HttpServerResponse.text(`${request.method} ${request.url}`, { status: 201, headers: { "x-seen": "yes" } }))

describe("the web handler", () => {
  it("gives the app the request and answers with its response", async () => {
    const response = await makeWebHandler(Runtime.defaultRuntime, echo)(new Request("http://kit.test/api/v1/site-info?a=1"))
    expect(response.status).toBe(201)
    expect(response.headers.get("x-seen")).toBe("yes")
    expect(await response.text()).toBe("GET /api/v1/site-info?a=1")
  })

  it("answers HEAD without a body", async () => {
    const response = await makeWebHandler(Runtime.defaultRuntime, echo)(new Request("http://kit.test/x", { method: "HEAD" }))
    expect(response.status).toBe(201)
    expect(await response.text()).toBe("")
  })

  it("answers a failure that escaped the app as a bare 500", async () => {
    const failing = Effect.die(new Error("secret detail")).pipe(Effect.provide(Logger.remove(Logger.defaultLogger)))
    const response = await makeWebHandler(Runtime.defaultRuntime, failing)(new Request("http://kit.test/x"))
    expect(response.status).toBe(500)
    expect(await response.text()).not.toContain("secret detail")
  })

  it("interrupts the request's fiber when the caller aborts", async () => {
    let interrupted = false
    const slow = Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => { interrupted = true })), Effect.as(HttpServerResponse.empty()))
    const controller = new AbortController()
    const answered = makeWebHandler(Runtime.defaultRuntime, slow)(new Request("http://kit.test/x", { signal: controller.signal }))
    controller.abort()
    const response = await answered
    expect(interrupted).toBe(true)
    expect(response.status).toBe(499)
  })
})
