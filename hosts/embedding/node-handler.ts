import type { IncomingMessage, ServerResponse } from "node:http"
import { underBasePath } from "./mounted-app.js"

/** node:http, Express (`app.use(handler)` or `app.use("/payments", handler)`) and Fastify middie alike. */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void

/** What frameworks add to Node's request: Express keeps the unmounted URL, body parsers leave marks. */
interface FrameworkRequest extends IncomingMessage {
  readonly originalUrl?: string
  readonly body?: unknown
  readonly _body?: boolean
}

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** A body parser ran first: the bytes the merchant signed are gone, so say so instead of failing a signature. */
const bodyAlreadyRead = (request: FrameworkRequest): boolean =>
  METHODS_WITH_BODY.has(request.method ?? "") && (request._body === true || (request.body !== undefined && request.readableEnded))

const BODY_CONSUMED = JSON.stringify({
  success: false,
  message: "merchant-payments needs the raw request body, but a body parser read it first: mount the payments handler before express.json() / express.urlencoded(), or keep those off its path.",
  error_code: "SERVER_MISCONFIGURED",
  errors: {}
})

/**
 * Adapts the kit's Node handler to a host app: requests outside the base path go to `next` (or get a
 * 404 on a bare node:http server); Express's mount prefix is put back, because the kit routes on
 * the full path the client called (and accepts a signature over it or over the path under the base).
 */
export const nodeHandler = (serve: (request: IncomingMessage, response: ServerResponse) => void, basePath: string): NodeHandler =>
  (request, response, next) => {
    const framework = request as FrameworkRequest
    const url = framework.originalUrl ?? request.url ?? "/"
    if (underBasePath(url, basePath) === undefined) {
      if (next !== undefined) return next()
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found")
      return
    }
    if (bodyAlreadyRead(framework)) {
      response.writeHead(500, { "content-type": "application/json" }).end(BODY_CONSUMED)
      return
    }
    request.url = url
    serve(request, response)
  }
