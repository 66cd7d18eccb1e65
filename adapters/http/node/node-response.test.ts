import { createServer, request as httpRequest } from "node:http"
import { connect } from "node:net"
import type { AddressInfo } from "node:net"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Metric from "effect/Metric"
import * as Stream from "effect/Stream"
import { describe, expect, it } from "vitest"
import * as Ids from "../../../core/signing/random-ids.js"
import { withRequestEdge } from "../request/request-edge.js"
import { MetricsSettings } from "../request/request-metrics.js"
import { makeNodeHandler } from "./node-handler.js"

/** A node:http server answering every request with `response`, for the length of `use`. */
const serving = async <A>(response: HttpServerResponse.HttpServerResponse, use: (url: string) => Promise<A>): Promise<A> => {
  const server = createServer(await Effect.runPromise(makeNodeHandler(Effect.succeed(response))))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
  } finally {
    server.closeAllConnections()
    server.close()
  }
}

const CHUNK = 64 * 1024
const CHUNKS = 512

describe("answers written to node:http", () => {
  it("streams a body far larger than the socket's buffers whole and in order, waiting on drain", async () => {
    const body = Stream.range(0, CHUNKS - 1).pipe(Stream.map((i) => new Uint8Array(CHUNK).fill(i % 251)))
    const received = await serving(HttpServerResponse.stream(body, { contentType: "application/octet-stream" }), (url) =>
      new Promise<Buffer>((resolve, reject) => {
        httpRequest(url, (response) => {
          const parts: Array<Buffer> = []
          // A slow reader: the server's writes fill the socket and must wait for it to drain.
          response.on("data", (part: Buffer) => {
            parts.push(part)
            response.pause()
            setTimeout(() => response.resume(), 0)
          })
          response.on("end", () => resolve(Buffer.concat(parts)))
          response.on("error", reject)
        }).on("error", reject).end()
      }))
    expect(received.length).toBe(CHUNK * CHUNKS)
    for (let i = 0; i < CHUNKS; i += 97) expect(received[i * CHUNK], `chunk ${i}`).toBe(i % 251)
  })

  it("answers HEAD with the head alone, and sends cookies as Set-Cookie beside the headers set", async () => {
    const answer = HttpServerResponse.text("hello", { headers: { "set-cookie": "kept=1" } }).pipe(
      HttpServerResponse.unsafeSetCookie("session", "abc", { httpOnly: true, path: "/" })
    )
    await serving(answer, async (url) => {
      const head = await fetch(url, { method: "HEAD" })
      expect(head.status).toBe(200)
      expect(await head.text()).toBe("")
      const get = await fetch(url)
      expect(await get.text()).toBe("hello")
      expect(get.headers.getSetCookie().sort()).toEqual(["kept=1", "session=abc; Path=/; HttpOnly"])
    })
  })

  it("interrupts the request's fiber when the client leaves before the answer", async () => {
    let interrupted = false
    const never = Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => (interrupted = true))))
    const server = createServer(await Effect.runPromise(makeNodeHandler(never)))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1")
      await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
      socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(interrupted).toBe(false)
      socket.destroy()
      for (let i = 0; i < 100 && !interrupted; i++) await new Promise((resolve) => setTimeout(resolve, 10))
      expect(interrupted).toBe(true)
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })

  it("answers a header Node refuses as a logged 500, and logs and counts the 500 it wrote, not the answer it could not", async () => {
    const lines: Array<{ readonly level: string; readonly message: string }> = []
    const capture = Logger.make(({ logLevel, message }) => {
      lines.push({ level: logLevel.label, message: (Array.isArray(message) ? message : [message]).filter((part) => typeof part === "string").join(" ") })
    })
    // A redirect whose Location carries text outside Latin-1: Node's writeHead throws on it.
    const app = withRequestEdge(() => "/unwritable")(Effect.succeed(HttpServerResponse.empty({ status: 303, headers: { location: "/payments?reference=注文" } })))
    const listener = await Effect.runPromise(makeNodeHandler(app).pipe(Effect.provide(Layer.mergeAll(
      Logger.replace(Logger.defaultLogger, capture),
      Layer.succeed(MetricsSettings, { enabled: true, public: false }),
      Ids.layer
    ))))
    const server = createServer(listener)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/unwritable`, { redirect: "manual" })
      expect(answer.status).toBe(500)
      expect(answer.headers.get("location")).toBeNull()
      expect(((await answer.json()) as { readonly error_code: string }).error_code).toBe("SERVER_ERROR")
      expect(lines.some((line) => line.level === "ERROR" && line.message.includes(`"location" header`))).toBe(true)
      expect(lines.some((line) => line.message.includes("注文"))).toBe(false)
      const requestLines = lines.filter((line) => line.message.startsWith("GET /unwritable "))
      expect(requestLines.map((line) => line.message.split(" ")[2])).toEqual(["500"])
      const counted = (status: string) =>
        Effect.runSync(Metric.snapshot).filter((pair) =>
          pair.metricKey.name === "merchant_payments_http_requests_total" &&
          pair.metricKey.tags.some((tag) => tag.key === "route" && tag.value === "/unwritable") &&
          pair.metricKey.tags.some((tag) => tag.key === "status" && tag.value === status)
        ).map((pair) => (pair.metricState as unknown as { readonly count: number }).count)
      expect(counted("500")).toEqual([1])
      expect(counted("303")).toEqual([])
    } finally {
      server.closeAllConnections()
      server.close()
    }
  })
})
