import * as HttpServer from "@effect/platform/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The host's start and stop lines, through the configured logger. Kept apart so whatever drives
 * start-up and shutdown (the CLI, a test) says them the same way.
 */
export const logListening = (url: string) => Effect.logInfo(`listening on ${url}`, { event: "listening", url })

export const logStopped = Effect.logInfo("stopped", { event: "stopped" })

const urlOf = (address: HttpServer.Address): string =>
  address._tag === "UnixAddress"
    ? `unix:${address.path}`
    : `http://${address.hostname.includes(":") ? `[${address.hostname}]` : address.hostname}:${address.port}`

/** Says where the server listens once it does. */
export const listeningLine = Layer.effectDiscard(Effect.flatMap(HttpServer.HttpServer, (server) => logListening(urlOf(server.address))))

/** Says `stopped` when released: provided outermost, that is after the server and the store have closed. */
export const stoppedLine = Layer.scopedDiscard(Effect.addFinalizer(() => logStopped))
