import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type { IncomingMessage } from "node:http"
import { incomingMessageOf } from "./node-body-reader.js"
import { carriesBody } from "./request-body.js"

/**
 * How much of a body nobody read (an oversized upload, a refused caller's body) is read and thrown
 * away before answering, and for how long. Closing a socket with unread bytes in its receive queue
 * makes the kernel send a reset, and the client loses the answer that was on its way: a 413 or 401
 * would arrive as a broken pipe. Beyond these bounds the client is abusive and is cut off.
 */
export const DRAIN_BYTES = 8 * 1024 * 1024
export const DRAIN_MILLIS = 10_000

/** Discards the rest of the body; true when it ended within the bounds. */
const drain = (incoming: IncomingMessage) =>
  Effect.async<boolean>((resume) => {
    let discarded = 0
    const settle = (drained: boolean) => {
      cleanup()
      if (!drained) incoming.pause()
      resume(Effect.succeed(drained))
    }
    const onData = (chunk: Buffer) => {
      discarded += chunk.length
      if (discarded > DRAIN_BYTES) settle(false)
    }
    const onEnd = () => settle(true)
    const onGone = () => settle(false)
    const timer = setTimeout(onGone, DRAIN_MILLIS)
    const cleanup = () => {
      clearTimeout(timer)
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onGone)
      incoming.off("close", onGone)
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onGone)
    incoming.once("close", onGone)
    incoming.resume()
    return Effect.sync(cleanup)
  })

/**
 * A request that declares no body has nothing unread, even while Node has not yet marked it complete
 * (it does so after the request event, and an answer ready at once would otherwise wait on a drain).
 */
const unread = (request: HttpServerRequest.HttpServerRequest, incoming: IncomingMessage): boolean =>
  carriesBody(request) && !incoming.complete && !incoming.readableEnded && !incoming.destroyed

/**
 * Before the answer goes out, whatever body the client is still sending is drained, so the answer
 * arrives. A body too large to drain gets the answer with `Connection: close`. (Part of the request
 * edge, request-edge.ts.)
 */
export const drainUnreadBody = (request: HttpServerRequest.HttpServerRequest, response: HttpServerResponse.HttpServerResponse) => {
  const incoming = incomingMessageOf(request)
  if (incoming === undefined || !unread(request, incoming)) return Effect.succeed(response)
  const declared = Number(request.headers["content-length"] ?? "0")
  const closing = HttpServerResponse.setHeader(response, "connection", "close")
  if (declared > DRAIN_BYTES) return Effect.succeed(closing)
  return Effect.map(drain(incoming), (drained) => (drained ? response : closing))
}
