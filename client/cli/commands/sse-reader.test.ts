import { describe, expect, it } from "vitest"
import { sseMessages } from "./sse-reader.js"

const bodyOf = (...chunks: ReadonlyArray<string>) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk))
      controller.close()
    }
  })

describe("reading the event stream", () => {
  it("yields each message once its blank line arrives, whatever the chunks, and skips heartbeats", async () => {
    const messages = []
    for await (const message of sseMessages(bodyOf(": heartbeat\n\nid: 7\nev", "ent: payment.completed\ndata: {\"id\":\"é\"}\n", "\n: heartbeat\n\nid: 8\r\ndata: a\r\ndata: b\r\n\r\n"))) messages.push(message)
    expect(messages).toEqual([
      { id: "7", event: "payment.completed", data: "{\"id\":\"é\"}" },
      { id: "8", event: undefined, data: "a\nb" }
    ])
  })
})
