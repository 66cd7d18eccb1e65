import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { storageLayer } from "../kit-layer.js"
import { banner } from "./banner.js"
import { DemoSeed } from "./demo-merchant.js"
import { type HostConfig, readHostConfig } from "../embedding/host-config.js"
import { resolveSecrets } from "../embedding/local-secrets.js"
import { runHost } from "./run-host.js"
import { serverLayer } from "./server.js"
import { HostFailure } from "../embedding/host-config.js"
import { explainFailure } from "./startup-problems.js"
import { resolve } from "node:path"
import { rotateMasterKey } from "./rotate-master-key.js"

const USAGE = `usage: merchant-payments [serve|migrate|backup FILE|rotate-master-key]
  serve              start the HTTP API (default); migrations run first
  migrate            apply database migrations and exit
  backup FILE        copy the embedded SQLite store to FILE (a new file), also while a host serves it
  rotate-master-key  re-seal every stored secret under MASTER_KEY (from MASTER_KEY_PREVIOUS) in one transaction`

type Command = { readonly name: "serve" | "migrate" | "rotate-master-key" } | { readonly name: "backup"; readonly file: string }

const run = (command: Command, config: HostConfig): Effect.Effect<void, unknown> => {
  if (command.name === "backup") {
    if (config.store.kind !== "sqlite") {
      return Effect.fail(new HostFailure("backup copies the embedded SQLite store; back up PostgreSQL with its own tools (pg_dump, or a base backup): docs/operations.md"))
    }
    // Loaded for this command only: a host serving PostgreSQL never loads the SQLite driver.
    const filename = config.store.filename
    return Effect.promise(() => import("../../adapters/sqlite/sqlite-backup.js")).pipe(
      Effect.flatMap(({ backupSqlite }) => backupSqlite(filename, resolve(command.file))),
      Effect.flatMap((report) =>
        Effect.sync(() => console.log(`backed up ${report.file}: ${report.bytes} bytes, ${report.migrations} migrations, integrity_check ok`))),
      Effect.catchTag("BackupFailed", (failure) => Effect.fail(new HostFailure(`backup: ${failure.message}`)))
    )
  }
  if (command.name === "rotate-master-key") return rotateMasterKey(config)
  if (command.name === "migrate") {
    // Building the storage layer applies the migrations; nothing else is started.
    return Effect.zipRight(Layer.build(storageLayer(config.store)), Effect.log("migrations applied")).pipe(Effect.scoped)
  }
  const secrets = resolveSecrets(config)
  const announce = Layer.effectDiscard(
    Effect.flatMap(DemoSeed, (demo) => Effect.sync(() => console.log(banner(config.baseUrl + config.basePath, secrets, demo))))
  )
  return Layer.launch(announce.pipe(Layer.provideMerge(serverLayer(config, secrets))))
}

/**
 * Reading the settings, the secrets and the layers can throw (a bad setting, a data directory under a
 * file): inside the effect, every failure, thrown or failed, becomes one line naming what to change.
 */
const program = (command: Command): Effect.Effect<void, unknown> =>
  Effect.suspend(() => {
    const config = readHostConfig()
    return Effect.suspend(() => run(command, config)).pipe(
      Effect.catchAllCause((cause) =>
        Cause.isInterruptedOnly(cause) ? Effect.failCause(cause) : Effect.fail(new HostFailure(explainFailure(Cause.squash(cause), config)))
      )
    )
  })

const [name = "serve", ...rest] = process.argv.slice(2)
const command: Command | undefined = (name === "serve" || name === "migrate" || name === "rotate-master-key") && rest.length === 0
  ? { name }
  : name === "backup" && rest.length === 1 && rest[0] !== ""
  ? { name, file: rest[0]! }
  : undefined
if (command === undefined) {
  console.error(USAGE)
  process.exit(2)
}
runHost(program(command))
