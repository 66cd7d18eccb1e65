import { IncomingMessage } from "node:http"
import * as Effect from "effect/Effect"
import { BodyTooLarge, MalformedJson } from "../response/edge-errors.js"

/** The Node request behind a platform request, when the host is node:http (not a fetch-style host). */
export const incomingMessageOf = (request: unknown): IncomingMessage | undefined => {
  const source = (request as { readonly source?: unknown }).source
  return source instanceof IncomingMessage ? source : undefined
}

/**
 * Reads the body up to `limitBytes`. Past the limit it stops and pauses the stream: what is left is
 * the edge's to drain (see body-drain.ts) once the 413 is ready, so nothing is buffered meanwhile.
 */
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
      cleanup()
      incoming.pause()
      resume(Effect.fail(new BodyTooLarge({ limitBytes })))
    }
    const onEnd = () => {
      cleanup()
      resume(Effect.succeed(new Uint8Array(Buffer.concat(chunks))))
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
