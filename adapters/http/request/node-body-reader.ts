import { IncomingMessage } from "node:http"
import * as Effect from "effect/Effect"
import { BodyTooLarge, MalformedJson } from "../response/edge-errors.js"

/** The Node request behind a platform request, when the host is node:http (not a fetch-style host). */
export const incomingMessageOf = (request: unknown): IncomingMessage | undefined => {
  const source = (request as { readonly source?: unknown }).source
  return source instanceof IncomingMessage ? source : undefined
}

/**
 * Collects a Node request's body up to `limitBytes`, failing as `tooLarge` past it (then it stops and
 * pauses the stream: what is left is the edge's to drain, see body-drain.ts, so nothing is buffered
 * meanwhile) and as `unreadable` when the stream errors. The one body reader on node:http: the
 * kit's own (below) and the platform request's (node-server-request.ts) alike.
 */
export const collectIncoming = <E>(
  incoming: IncomingMessage,
  limitBytes: number,
  failures: { readonly tooLarge: () => E; readonly unreadable: (cause: unknown) => E }
) =>
  Effect.async<Buffer, E>((resume) => {
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
      resume(Effect.fail(failures.tooLarge()))
    }
    const onEnd = () => {
      cleanup()
      resume(Effect.succeed(Buffer.concat(chunks)))
    }
    const onError = (cause: unknown) => {
      cleanup()
      resume(Effect.fail(failures.unreadable(cause)))
    }
    incoming.on("data", onData)
    incoming.once("end", onEnd)
    incoming.once("error", onError)
    return Effect.sync(cleanup)
  })

/** Reads the body up to `limitBytes`, as the API's errors. */
export const readIncoming = (incoming: IncomingMessage, limitBytes: number): Effect.Effect<Uint8Array, BodyTooLarge | MalformedJson> =>
  Effect.map(
    collectIncoming<BodyTooLarge | MalformedJson>(incoming, limitBytes, {
      tooLarge: () => new BodyTooLarge({ limitBytes }),
      unreadable: () => new MalformedJson({ detail: "The request body could not be read." })
    }),
    (bytes) => new Uint8Array(bytes)
  )
