import { createServer, request as httpRequest } from "node:http"
import { connect } from "node:net"
import type { AddressInfo } from "node:net"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { describe, expect, it } from "vitest"
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
})
