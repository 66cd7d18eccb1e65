import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpTraceContext from "@effect/platform/HttpTraceContext"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"

/**
 * Middleware: one server span per request, named `METHOD /route/:template` and carrying only the
 * method, the route template and the status: never the raw path (checkout tokens, payment ids), the
 * query, a header or the body. A caller's `traceparent` makes it a child of the caller's span. The
 * `untraced` routes (health probes) make no span at all. With tracing off it is skipped outright,
 * before anything is read.
 */
export const withServerSpan = (
  templateOf: (method: string, pathname: string) => string | undefined,
  untraced: ReadonlyArray<string> = []
) =>
<E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E, R>((fiber) => {
    if (!fiber.getFiberRef(FiberRef.currentTracerEnabled)) return app
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    const queryStart = request.url.indexOf("?")
    const route = templateOf(request.method, queryStart === -1 ? request.url : request.url.slice(0, queryStart))
    // A probe every few seconds from each load balancer would bury the traces anyone reads.
    if (route !== undefined && untraced.includes(route)) return Effect.withTracerEnabled(app, false)
    return Effect.useSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        kind: "server",
        captureStackTrace: false,
        parent: Option.getOrUndefined(HttpTraceContext.fromHeaders(request.headers)),
        attributes: { "http.request.method": request.method, ...(route !== undefined ? { "http.route": route } : {}) }
      },
      (span) =>
        Effect.tap(Effect.withParentSpan(app, span), (response) => {
          span.attribute("http.response.status_code", response.status)
          // The answer is a response either way; a 5xx is what marks the request failed.
          if (response.status >= 500) span.attribute("error.type", String(response.status))
        })
    )
  })
