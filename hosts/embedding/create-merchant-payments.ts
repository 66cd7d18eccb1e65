import type { IncomingMessage, ServerResponse } from "node:http"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Logging from "../../adapters/logging/logger-layer.js"
import { tracingLayer } from "../../adapters/tracing/tracing-layer.js"
import { kitLayer } from "../kit-layer.js"
import { type AdminApi, makeAdminApi } from "./in-process-admin.js"
import { mountedApp } from "./mounted-app.js"
import { type NodeHandler, nodeHandler } from "./node-handler.js"
import { assemble, type MerchantPaymentsOptions } from "./options.js"
import { makeNodeHandler } from "../../adapters/http/node/node-handler.js"
import { makeWebHandler } from "../../adapters/http/web/web-handler.js"

export interface MerchantPayments {
  /** `(req, res, next?)`: mount it on node:http, Express or Fastify; it answers only under `basePath`. */
  readonly handler: NodeHandler
  /** The same app for fetch-style hosts and tests: a web Request in, a Response out. */
  readonly fetch: (request: Request) => Promise<Response>
  /** The admin API, typed, in process. */
  readonly admin: AdminApi
  /** Where checkout links and notify addresses point: baseUrl + basePath. */
  readonly publicUrl: string
  /** Stops taking requests, lets those in flight finish (up to 10 s), stops the jobs, closes the store, flushes spans. */
  readonly close: () => Promise<void>
}

const loggingOf = (options: MerchantPaymentsOptions) =>
  options.logging === false
    ? Logging.layer({ format: "human", level: "error", write: (line) => void process.stderr.write(`${line}\n`) })
    : Logging.layer({
      format: options.logging?.format ?? "human",
      level: options.logging?.level ?? "info",
      ...(options.logging?.write !== undefined ? { write: options.logging.write } : {})
    })

const DRAIN_MILLIS = 10_000

/**
 * The kit for a platform's own Node app. Builds the store (migrating it), the plugins (refusing one it
 * cannot host) and the background jobs, then hands back a handler. The standalone host serves the
 * same assembly (`assemble`, `mountedApp`) behind its own node:http server.
 */
export const createMerchantPayments = async (options: MerchantPaymentsOptions): Promise<MerchantPayments> => {
  const { basePath, kit, manualClock, tracing } = assemble(options)
  // Without a tracing option no span is made anywhere: they cost a fair share of each request.
  const runtime = ManagedRuntime.make(kitLayer(kit).pipe(Layer.provideMerge(loggingOf(options)), Layer.provide(tracingLayer(tracing))))
  const built = await runtime.runtime().catch(async (error: unknown) => {
    await runtime.dispose()
    throw error
  })
  const app = mountedApp(basePath, manualClock)
  const serve = await runtime.runPromise(makeNodeHandler(app))
  const fetch = makeWebHandler(built, app)

  let inFlight = 0
  let closing: Promise<void> | undefined
  const tracked = (request: IncomingMessage, response: ServerResponse) => {
    if (closing !== undefined) {
      response.writeHead(503, { "content-type": "application/json", "retry-after": "1", connection: "close" })
        .end(JSON.stringify({ success: false, message: "Shutting down.", error_code: "SERVICE_UNAVAILABLE", errors: {} }))
      return
    }
    inFlight++
    response.once("close", () => inFlight--)
    serve(request, response)
  }

  const admin = makeAdminApi(async (method, path, body) => {
    const response = await fetch(new Request(`${kit.baseUrl}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${kit.adminToken}`, "content-type": "application/json" },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {})
    }))
    return { status: response.status, text: await response.text() }
  })

  const close = () => {
    closing ??= (async () => {
      const deadline = Date.now() + DRAIN_MILLIS
      while (inFlight > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
      await runtime.dispose()
    })()
    return closing
  }

  return { handler: nodeHandler(tracked, basePath), fetch, admin, publicUrl: kit.baseUrl, close }
}
