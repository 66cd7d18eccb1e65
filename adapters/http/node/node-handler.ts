import type { IncomingMessage, ServerResponse } from "node:http"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import { NodeServerRequest } from "./node-server-request.js"
import { writeResponse } from "./node-response.js"

/** A node:http request listener. */
export type NodeRequestListener = (request: IncomingMessage, response: ServerResponse) => void

/**
 * What reaches here escaped the app (the kit's answers every failure of its own): an interruption,
 * mostly the client gone, or an answer Node would not write (the kit's edge turns one into a 500
 * before it is logged, nodeWritable; an app without it is told here). Answered as the platform would
 * when the head is not out yet; a body cut off mid-stream ends the connection, so the client sees it
 * cut rather than waiting.
 */
const answerEscaped = (node: ServerResponse, method: string, cause: Cause.Cause<unknown>) =>
  Effect.zipRight(
    Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("the answer could not be written", cause),
    Effect.flatMap(HttpServerError.causeResponse(cause), ([response]) =>
      node.headersSent ? Effect.sync(() => node.destroy()) : writeResponse(node, method, response))
  ).pipe(Effect.ignore)

/**
 * Serves an HTTP app on node:http, each request in a fiber of its own (interrupted if the client
 * leaves before its answer). The platform's Node server runs every request inside a scope, through
 * its tracer middleware and pre-response hooks, and holds the fiber until the socket has taken the
 * body; the kit uses none of that, and a profile put it at half the cost of a bare answer: this
 * adapter runs the app and writes its answer, no more.
 */
export const makeNodeHandler = <E, R>(
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<NodeRequestListener, never, Exclude<R, HttpServerRequest.HttpServerRequest>> =>
  Effect.map(Effect.runtime<Exclude<R, HttpServerRequest.HttpServerRequest>>(), (runtime) => {
    const { context, fiberRefs, runtimeFlags } = runtime
    return (incoming, outgoing) => {
      const request = new NodeServerRequest(incoming, outgoing)
      // The request is in the fiber's context from its start: provided around the app instead, the
      // context reference would be set and restored around it as well (about 6 µs a request with
      // the kit's fifty-odd services, measured on a hello app).
      const started: Runtime.Runtime<R> = Runtime.make({
        context: Context.add(context, HttpServerRequest.HttpServerRequest, request) as Context.Context<R>,
        fiberRefs,
        runtimeFlags
      })
      const fiber = Runtime.runFork(started)(app.pipe(
        Effect.flatMap((response) => writeResponse(outgoing, request.method, response)),
        Effect.catchAllCause((cause) => answerEscaped(outgoing, request.method, cause))
      ) as Effect.Effect<void, never, R>)
      outgoing.on("close", () => {
        if (!outgoing.writableEnded) fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId)
      })
    }
  })
