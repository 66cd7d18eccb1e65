import { Cause, Effect, Layer } from "effect"
import { storageLayer } from "../kit-layer.js"
import { banner } from "./banner.js"
import { DemoSeed } from "./demo-merchant.js"
import { type HostConfig, readHostConfig } from "../embedding/host-config.js"
import { resolveSecrets } from "../embedding/local-secrets.js"
import { runHost } from "./run-host.js"
import { serverLayer } from "./server.js"
import { HostFailure } from "../embedding/host-config.js"
import { explainFailure } from "./startup-problems.js"

const USAGE = `usage: merchant-payments [serve|migrate]
  serve    start the HTTP API (default); migrations run first
  migrate  apply database migrations and exit`

const run = (command: "serve" | "migrate", config: HostConfig): Effect.Effect<void, unknown> => {
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

/**
 * Reading the settings, the secrets and the layers can throw (a bad setting, a data directory under a
 * file): inside the effect, every failure, thrown or failed, becomes one line naming what to change.
 */
const program = (command: "serve" | "migrate"): Effect.Effect<void, unknown> =>
  Effect.suspend(() => {
    const config = readHostConfig()
    return Effect.suspend(() => run(command, config)).pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.fail(new HostFailure(explainFailure(Cause.squash(cause), config)))
      )
    )
  })

const command = process.argv[2] ?? "serve"
if (command !== "serve" && command !== "migrate") {
  console.error(USAGE)
  process.exit(2)
}
runHost(program(command))
