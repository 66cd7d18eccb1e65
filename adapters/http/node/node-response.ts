import type { OutgoingHttpHeaders, ServerResponse } from "node:http"
import { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import * as Cookies from "@effect/platform/Cookies"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/** The headers Node is given for an answer: its own, with its cookies as Set-Cookie lines. */
export const headersOf = (response: HttpServerResponse.HttpServerResponse): OutgoingHttpHeaders => {
  if (Cookies.isEmpty(response.cookies)) return response.headers
  const existing = response.headers["set-cookie"]
  return { ...response.headers, "set-cookie": [...Cookies.toSetCookieHeaders(response.cookies), ...(existing !== undefined ? [existing] : [])] }
}

const writeHead = (node: ServerResponse, response: HttpServerResponse.HttpServerResponse, headers: OutgoingHttpHeaders) =>
  response.statusText === undefined ? node.writeHead(response.status, headers) : node.writeHead(response.status, response.statusText, headers)

/**
 * A stream body, chunk by chunk, waiting for the socket to drain whenever Node asks to. The latch
 * keeps a drain that comes before the fiber reaches the wait (it may yield in between): the wait
 * then passes at once.
 */
const writeStream = (node: ServerResponse, stream: Stream.Stream<Uint8Array, unknown>) =>
  Effect.suspend(() => {
    const drained = Effect.unsafeMakeLatch(true)
    const onDrain = () => drained.unsafeOpen()
    node.on("drain", onDrain)
    return stream.pipe(
      Stream.orDie,
      Stream.runForEachChunk((chunk) => {
        let full = false
        for (const bytes of Chunk.toReadonlyArray(chunk)) full = !node.write(bytes) || full
        if (!full) return Effect.void
        drained.unsafeClose()
        return drained.await
      }),
      Effect.ensuring(Effect.sync(() => node.off("drain", onDrain))),
      Effect.zipRight(Effect.sync(() => node.end()))
    )
  })

/**
 * Writes the answer to Node. A whole body (text or bytes) is handed to `end` and the fiber is done:
 * Node sends it without the request's fiber waiting for the socket. Streams are written as they
 * come, with back-pressure; an answer to HEAD carries the head alone.
 */
export const writeResponse = (
  node: ServerResponse,
  method: string,
  response: HttpServerResponse.HttpServerResponse
): Effect.Effect<void, unknown> => {
  if (node.writableEnded) return Effect.void
  const headers = headersOf(response)
  const body = response.body
  if (method === "HEAD") {
    writeHead(node, response, headers)
    node.end()
    return Effect.void
  }
  switch (body._tag) {
    case "Empty":
      writeHead(node, response, headers)
      node.end()
      return Effect.void
    case "Uint8Array":
      writeHead(node, response, headers)
      node.end(body.body)
      return Effect.void
    case "Raw": {
      writeHead(node, response, headers)
      const raw = body.body
      if (typeof raw === "string" || raw instanceof Uint8Array) {
        node.end(raw)
        return Effect.void
      }
      if (raw instanceof Readable) return Effect.tryPromise((signal) => pipeline(raw, node, { signal }))
      node.end()
      return Effect.void
    }
    case "Stream":
      writeHead(node, response, headers)
      return writeStream(node, body.stream)
    case "FormData":
      return Effect.suspend(() => {
        const web = new Response(body.formData)
        writeHead(node, response, { ...headers, ...Object.fromEntries(web.headers) })
        return web.body === null
          ? Effect.sync(() => node.end())
          : Effect.tryPromise((signal) => pipeline(Readable.fromWeb(web.body as Parameters<typeof Readable.fromWeb>[0]), node, { signal }))
      })
  }
}
