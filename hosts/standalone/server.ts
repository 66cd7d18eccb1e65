import { createServer as createNetServer } from "node:net"
import * as HttpServer from "@effect/platform/HttpServer"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as NodeServer from "../../adapters/http/node/node-http-server.js"
import * as Logging from "../../adapters/logging/logger-layer.js"
import { tracingLayer } from "../../adapters/tracing/tracing-layer.js"
import type { PluginEntry } from "../../core/gateways/gateway-plugin-registry.js"
import { optionsFromHostConfig } from "../embedding/config-from-env.js"
import { mountedApp } from "../embedding/mounted-app.js"
import { assemble } from "../embedding/options.js"
import { kitLayer } from "../kit-layer.js"
import { Readiness } from "../../core/shared/readiness.js"
import { DemoSeed, seedDemoMerchant, type DemoCredentials } from "./demo-merchant.js"
import { createGracefulServer } from "./graceful-server.js"
import type { HostConfig } from "../embedding/host-config.js"
import { listeningLine, stoppedLine } from "./lifecycle-log.js"
import { resolveSecrets, secretsDirectory, type HostSecrets } from "../embedding/local-secrets.js"
import { loadPluginModules } from "../embedding/plugin-modules.js"
import { HostFailure } from "../embedding/host-config.js"

/**
 * Acquired after the server, so released before it: readiness turns 503 as shutdown begins, and a
 * load balancer polling /readyz on a kept-alive connection stops routing here before the drain ends.
 */
const notReadyOnShutdown = Layer.scopedDiscard(Effect.flatMap(Readiness, (readiness) => Effect.addFinalizer(() => readiness.beginDrain)))

/** GATEWAY_PLUGINS, imported relative to the directory the host was started in. */
const pluginModules = (config: HostConfig): Effect.Effect<ReadonlyArray<PluginEntry>, HostFailure> =>
  config.gatewayPlugins.length === 0
    ? Effect.succeed([])
    : Effect.tryPromise({
      try: () => loadPluginModules(config.gatewayPlugins, process.cwd()),
      catch: (error) => (error instanceof HostFailure ? error : new HostFailure(`GATEWAY_PLUGINS: ${String(error)}`))
    })

/**
 * The HTTP server over the kit. Tracing is off unless configured: it costs about half the throughput.
 * The kit (and so the store) is provided outermost: on shutdown the server stops
 * accepting, in-flight requests finish, and only then does the pool close.
 */
export interface ServerOptions {
  /** Where log lines go (default: standard output), at the configured format and level. */
  readonly logSink?: (line: string) => void
}

export const serverLayer = (config: HostConfig, secrets: HostSecrets, options: ServerOptions = {}) => {
  // The embedding options' own assembly (one path): plugin modules are imported first, so the
  // registry judges them as the kit starts; a manual clock starts at CLOCK_START or now.
  const assembled = Effect.map(pluginModules(config), (plugins) => assemble(optionsFromHostConfig(config, secrets, plugins)))
  const demo = config.demo ? seedDemoMerchant(secretsDirectory(config)) : Effect.succeed(undefined)
  const logging = Logging.layer({ ...config.logging, ...(options.logSink !== undefined ? { write: options.logSink } : {}) })
  const served = Layer.unwrapEffect(Effect.map(assembled, ({ basePath, kit, manualClock, tracing }) =>
    Layer.mergeAll(HttpServer.serve(mountedApp(basePath, manualClock)), listeningLine, notReadyOnShutdown).pipe(
      Layer.provideMerge(NodeServer.layer(() => createGracefulServer(config.http), { port: config.port, host: config.host })),
      Layer.provideMerge(Layer.effect(DemoSeed, demo)),
      Layer.provideMerge(kitLayer(kit)),
      // Without OTEL_EXPORTER_OTLP_ENDPOINT no span is made anywhere: @effect/sql makes one per
      // statement even when the HTTP middleware's tracing is off (about a tenth of a statement's cost).
      // Beneath the kit, so the spans of shutdown are flushed after everything else closed.
      Layer.provide(tracingLayer(tracing))
    )))
  return served.pipe(
    // The logger is in place before anything starts and the stop line is said after everything closed.
    Layer.provide(stoppedLine),
    Layer.provide(logging)
  )
}

export interface RunningServer {
  readonly url: string
  readonly adminToken: string
  readonly demo: DemoCredentials | undefined
  readonly close: () => Promise<void>
}

/** A port the system just gave out: links must name the real port, so it is chosen before start-up. */
const freePort = (host: string) =>
  new Promise<number>((resolve, reject) => {
    const probe = createNetServer()
    probe.once("error", reject)
    probe.listen(0, host, () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/**
 * Starts the standalone host in this process (tests, benchmarks); `close` shuts it down gracefully.
 * Without a `logSink` only errors are logged, to standard error: a test run stays readable.
 */
export const startServer = async (requested: HostConfig, options: ServerOptions = {}): Promise<RunningServer> => {
  // Port 0 means "any": pick it now so the base URL (checkout links, site_url) names the real one.
  const port = requested.port === 0 ? await freePort(requested.host) : requested.port
  const config = requested.port === 0 && requested.baseUrl.endsWith(":0")
    ? { ...requested, port, baseUrl: `${requested.baseUrl.slice(0, -2)}:${port}` }
    : { ...requested, port }
  const secrets = resolveSecrets(config)
  const logged = options.logSink !== undefined
    ? { config, options }
    : { config: { ...config, logging: { ...config.logging, level: "error" as const } }, options: { logSink: (line: string) => void process.stderr.write(`${line}\n`) } }
  const runtime = ManagedRuntime.make(serverLayer(logged.config, secrets, logged.options))
  const demo = await runtime.runPromise(DemoSeed)
  return {
    url: `http://127.0.0.1:${port}`,
    adminToken: secrets.adminToken,
    demo,
    close: () => runtime.dispose()
  }
}
