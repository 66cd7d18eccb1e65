import { IncomingMessage } from "node:http"
import { Effect } from "effect"
import { BodyTooLarge, MalformedJson } from "./edge-errors.js"

/**
 * How much of an oversized body is read and thrown away so the client can still be told 413.
 * The platform's reader destroys the socket at the limit, so a chunked upload just over it would get
 * no answer at all; past this much more, the connection is cut as abuse.
 */
const DRAIN_BYTES = 8 * 1024 * 1024

/** The Node request behind a platform request, when the host is node:http (not a fetch-style host). */
export const incomingMessageOf = (request: unknown): IncomingMessage | undefined => {
  const source = (request as { readonly source?: unknown }).source
  return source instanceof IncomingMessage ? source : undefined
}

export const readIncoming = (incoming: IncomingMessage, limitBytes: number) =>
  Effect.async<Uint8Array, BodyTooLarge | MalformedJson>((resume) => {
    const chunks: Array<Buffer> = []
    let received = 0
    const cleanup = () => {
      incoming.off("data", onData)
      incoming.off("end", onEnd)
      incoming.off("error", onError)
    }
    const onData = (chunk: Buffer) => {
      received += chunk.length
      if (received <= limitBytes) {
        chunks.push(chunk)
        return
      }
      chunks.length = 0
      if (received > limitBytes + DRAIN_BYTES) {
        cleanup()
        incoming.destroy()
        resume(Effect.fail(new BodyTooLarge({ limitBytes })))
      }
    }
    const onEnd = () => {
      cleanup()
      resume(received > limitBytes ? Effect.fail(new BodyTooLarge({ limitBytes })) : Effect.succeed(new Uint8Array(Buffer.concat(chunks))))
    }
    const onError = () => {
      cleanup()
      resume(Effect.fail(new MalformedJson({ detail: "The request body could not be read." })))
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    return Effect.sync(cleanup)
  })
