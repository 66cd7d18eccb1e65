import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { Ids } from "../../../core/signing/random-ids.js"
import { nodeWritable } from "../node/node-headers.js"
import { drainUnreadBody } from "./body-drain.js"
import { presentedRequestId, requestLine, loggedPath } from "./request-log.js"
import { countRequest, MetricsSettings } from "./request-metrics.js"

/** Headers every answer carries, whatever answered it. */
const EDGE_HEADERS = { "x-content-type-options": "nosniff" } as const

/**
 * Middleware, one pass for what every request gets at the edge (a profile showed four stacked
 * middlewares costing about a sixth of a signed read's CPU): a request id (a valid incoming
 * `X-Request-Id` kept) echoed on the answer and on every log line written while it runs; the unread
 * rest of a body drained before answering; an answer Node could not write made the 500 it will be
 * (nodeWritable); `nosniff`; and once it ends, its count and duration by route template and its one
 * log line.
 */
export const withRequestEdge = (templateOf: (method: string, pathname: string) => string | undefined) =>
<E, R>(app: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest | MetricsSettings | Ids>((fiber) => {
    const context = fiber.currentContext
    const request = Context.unsafeGet(context, HttpServerRequest.HttpServerRequest)
    const metrics = Context.unsafeGet(context, MetricsSettings).enabled
    const started = performance.now()
    const answer = (requestId: string) =>
      app.pipe(
        Effect.flatMap((response) => drainUnreadBody(request, response)),
        Effect.flatMap(nodeWritable),
        Effect.map(HttpServerResponse.setHeaders({ ...EDGE_HEADERS, "x-request-id": requestId })),
        Effect.onExit((exit) => {
          const status = Exit.isSuccess(exit) ? exit.value.status : undefined
          const elapsed = performance.now() - started
          if (metrics) {
            const queryStart = request.url.indexOf("?")
            countRequest(templateOf(request.method, queryStart === -1 ? request.url : request.url.slice(0, queryStart)), request.method, status, elapsed / 1000)
          }
          return requestLine(request.method, loggedPath(request.url), status, Math.round(elapsed))
        }),
        // One scoped annotation for the handler's lines and the request line alike: each copies
        // the fiber's references twice.
        Effect.annotateLogs("request_id", requestId)
      )
    const presented = presentedRequestId(request)
    return presented !== undefined ? answer(presented) : Effect.flatMap(Context.unsafeGet(context, Ids).uuid, answer)
  })
