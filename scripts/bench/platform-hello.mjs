// The framework's floor: @effect/platform's Node server and router answering a small JSON with no
// work at all, configured as the kit's host is (tracing off). The kit's own cost is what the signed
// site-info row adds on top of this one; the gap between this row and bare node:http is the
// framework's, and no handler running on it can go below it.
import { createServer } from "node:http"
import { HttpMiddleware, HttpRouter, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Layer } from "effect"

const port = Number(process.env["PORT"] ?? "0")
const host = process.env["HOST"] ?? "127.0.0.1"
const body = JSON.stringify({ status: "ok" })

const router = HttpRouter.empty.pipe(HttpRouter.get("/", HttpServerResponse.text(body, { contentType: "application/json" })))

NodeRuntime.runMain(Layer.launch(HttpServer.serve(router).pipe(
  HttpMiddleware.withTracerDisabledWhen(() => true),
  Layer.provide(NodeHttpServer.layer(() => createServer(), { port, host }))
)))
