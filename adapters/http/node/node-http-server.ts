import type { Server } from "node:http"
import type { ListenOptions } from "node:net"
import * as HttpServer from "@effect/platform/HttpServer"
import * as HttpServerError from "@effect/platform/HttpServerError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { makeNodeHandler } from "./node-handler.js"

/**
 * The platform's HttpServer on a node:http server of the host's making, served through the kit's
 * own Node adapter (node-handler.ts). Listening fails as a ServeError (a port in use); closing the
 * layer closes the server and waits for it, as the platform's Node server does.
 */
export const layer = (evaluate: () => Server, options: ListenOptions): Layer.Layer<HttpServer.HttpServer, HttpServerError.ServeError> =>
  Layer.scoped(
    HttpServer.HttpServer,
    Effect.gen(function*() {
      const server = yield* Effect.acquireRelease(Effect.sync(evaluate), (server) =>
        Effect.async<void>((resume) => {
          if (!server.listening) return resume(Effect.void)
          server.close((error) => resume(error === undefined ? Effect.void : Effect.die(error)))
        }))
      yield* Effect.async<void, HttpServerError.ServeError>((resume) => {
        const onError = (cause: unknown) => resume(Effect.fail(new HttpServerError.ServeError({ cause })))
        server.once("error", onError)
        server.listen(options, () => {
          server.off("error", onError)
          resume(Effect.void)
        })
      })
      const address = server.address()
      return HttpServer.make({
        address: typeof address === "string"
          ? { _tag: "UnixAddress", path: address }
          : { _tag: "TcpAddress", hostname: address?.address === "::" ? "0.0.0.0" : address?.address ?? "", port: address?.port ?? 0 },
        serve: (app, middleware) =>
          Effect.gen(function*() {
            const handler = yield* makeNodeHandler(middleware === undefined ? app : middleware(app))
            yield* Effect.addFinalizer(() => Effect.sync(() => server.off("request", handler)))
            server.on("request", handler)
          }) as Effect.Effect<void, never, never>
      })
    })
  )
