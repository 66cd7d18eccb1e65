import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { makeNodeHandler } from "../node/node-handler.js"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { wholeText } from "./whole-text.js"

describe("a whole text answer", () => {
  it("goes out over Node with its byte length, not chunked, for any text", async () => {
    const text = "{\"description\":\"Café ✓ 🧾\"}"
    const handler = await Effect.runPromise(makeNodeHandler(Effect.succeed(wholeText(text, { status: 201, contentType: "application/json", headers: { "x-kept": "yes" } }))))
    const server = createServer(handler)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)
      expect(response.status).toBe(201)
      expect(response.headers.get("content-type")).toBe("application/json")
      expect(response.headers.get("x-kept")).toBe("yes")
      expect(response.headers.get("transfer-encoding")).toBeNull()
      expect(response.headers.get("content-length")).toBe(String(Buffer.byteLength(text)))
      expect(await response.text()).toBe(text)
    } finally {
      server.close()
    }
  })
})
