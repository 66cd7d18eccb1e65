import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { storageLayer } from "../kit-layer.js"
import { banner } from "./banner.js"
import { DemoSeed } from "./demo-merchant.js"
import { ConfigProblem, readHostConfig } from "./host-config.js"
import { resolveSecrets } from "./local-secrets.js"
import { serverLayer } from "./server.js"

const USAGE = `usage: merchant-payments [serve|migrate]
  serve    start the HTTP API (default); migrations run first
  migrate  apply database migrations and exit`

const program = (command: "serve" | "migrate"): Effect.Effect<void, unknown> => {
  const config = readHostConfig()
  if (command === "migrate") {
    // Building the storage layer applies the migrations; nothing else is started.
    return Effect.zipRight(Layer.build(storageLayer(config.store)), Effect.log("migrations applied")).pipe(Effect.scoped)
  }
  const secrets = resolveSecrets(config)
  const announce = Layer.effectDiscard(
    Effect.flatMap(DemoSeed, (demo) => Effect.sync(() => console.log(banner(config.baseUrl, secrets, demo))))
  )
  return Layer.launch(announce.pipe(Layer.provideMerge(serverLayer(config, secrets))))
}

const command = process.argv[2] ?? "serve"
if (command !== "serve" && command !== "migrate") {
  console.error(USAGE)
  process.exit(2)
}

try {
  // runMain turns SIGINT/SIGTERM into interruption: the server stops accepting, in-flight requests
  // finish, the store closes, and the process exits.
  NodeRuntime.runMain(program(command), { disablePrettyLogger: true })
} catch (error) {
  if (!(error instanceof ConfigProblem)) throw error
  console.error(`merchant-payments: ${error.message}`)
  process.exit(2)
}
