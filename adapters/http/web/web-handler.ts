import * as HttpServerError from "@effect/platform/HttpServerError"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"

/** A fetch-style handler: a web Request in, a Response out. */
export type WebHandler = (request: Request) => Promise<Response>

/**
 * Serves an HTTP app to fetch-style callers, each request in a fiber of its own (interrupted when the
 * request's signal aborts). The platform's web handler copies the runtime's whole context for the
 * request, then copies it again to give the request a scope, and runs its tracer middleware and
 * pre-response hooks; the kit uses none of that (the node handler beside it does the same): the
 * request joins the context in one copy, and a failure that escaped the app is answered as the
 * platform would.
 */
export const makeWebHandler = <E, R>(
  runtime: Runtime.Runtime<Exclude<R, HttpServerRequest.HttpServerRequest>>,
  app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): WebHandler => {
  const { context, fiberRefs, runtimeFlags } = runtime
  return (incoming) => new Promise<Response>((resolve) => {
    const request = HttpServerRequest.fromWeb(incoming)
    const started: Runtime.Runtime<R> = Runtime.make({
      context: Context.add(context, HttpServerRequest.HttpServerRequest, request) as Context.Context<R>,
      fiberRefs,
      runtimeFlags
    })
    const answer = (response: HttpServerResponse.HttpServerResponse) =>
      Effect.sync(() => resolve(HttpServerResponse.toWeb(response, { withoutBody: request.method === "HEAD", runtime })))
    // The app alone is interruptible: an aborted call still settles its promise (499, as the platform answers).
    const fiber = Runtime.runFork(started)(Effect.uninterruptibleMask((restore) =>
      restore(app).pipe(
        Effect.flatMap(answer),
        Effect.catchAllCause((cause) =>
          Effect.zipRight(
            Cause.isInterruptedOnly(cause) ? Effect.void : Effect.logError("the answer could not be made", cause),
            Effect.flatMap(HttpServerError.causeResponse(cause), ([response]) => answer(response))
          ))
      )) as Effect.Effect<void, never, R>)
    incoming.signal?.addEventListener("abort", () => fiber.unsafeInterruptAsFork(HttpServerError.clientAbortFiberId), { once: true })
  })
}
