// MODE=platform | lean
import { createServer } from "node:http"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as HttpApp from "@effect/platform/HttpApp"
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import * as Layer from "effect/Layer"
const port = Number(process.env["PORT"] ?? "0")
const body = JSON.stringify({ status: "ok" })
const router = HttpRouter.empty.pipe(HttpRouter.get("/", Effect.succeed(HttpServerResponse.raw(body, { contentType: "application/json", contentLength: Buffer.byteLength(body) }))))
const runtime = await Effect.runPromise(Effect.runtime().pipe(Effect.provide(Layer.setTracerEnabled(false))))
let handler
if (process.env.MODE === "platform") {
  handler = await Runtime.runPromise(runtime)(NodeHttpServer.makeHandler(router))
} else {
  // capture the platform's request class once
  let Impl
  const grab = await Runtime.runPromise(runtime)(NodeHttpServer.makeHandler(Effect.map(HttpServerRequest.HttpServerRequest, (r) => { Impl = r.constructor; return HttpServerResponse.empty() })))
  const runFork = Runtime.runFork(runtime)
  handler = (req, res) => {
    const fiber = runFork(Effect.provideService(router, HttpServerRequest.HttpServerRequest, new Impl(req, res)).pipe(
      Effect.map((response) => { res.writeHead(response.status, response.headers); res.end(response.body.body) }),
      Effect.catchAllCause(() => Effect.sync(() => { res.writeHead(500); res.end() }))))
    res.on("close", () => { if (!res.writableEnded) fiber.unsafeInterruptAsFork(fiber.id()) })
  }
  const warm = createServer(grab); await new Promise((r) => warm.listen(0, r)); await fetch(`http://127.0.0.1:${warm.address().port}/`); warm.close()
}
const server = createServer(handler)
server.listen(port, "127.0.0.1", () => console.log("listening", server.address().port))
process.on("SIGTERM", () => { server.close(); server.closeAllConnections(); process.exit(0) })
