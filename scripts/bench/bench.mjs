// `npm run bench [-- --duration N --warmup N --skip-build]` measures, in one run on this machine:
// what loading costs (import-cost.mjs: bare node, Express, the kit's package imported and started),
// the hand-written twin (twin-server.mjs: Express 5 + better-sqlite3 with the signature check and
// nothing else), the hellos of bare node:http, Express 5 and @effect/platform, the durable-commit
// ceilings (SQLite one-row commits with the kit's pragmas; PostgreSQL one-row inserts at the bench's
// concurrency), and the kit's standalone host on SQLite and, when DATABASE_URL is postgres://, on that
// database too (the host migrates it and writes rows: use a throw-away one). Each kit row is printed
// as a ratio to its twin, and with PostgreSQL the subscription scheduler's rows at 10,000 and 200,000
// subscriptions (scheduler-scale.mjs). `--metrics-off` adds the kit on SQLite with METRICS=off beside the default
// (metrics on), in the same run: what counting costs. `--soak SECONDS` runs the soak of soak.mjs instead. Numbers only, never an
// exit code: the issue's targets are for a reader of the output.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runLoad, runPostgresInserts, runSchedulerScale, runSqliteCommits } from "./load.mjs"
import { freePort, killNow, logTail, peakRssMiB, rssMiB, startNode, stop, waitForOk } from "./processes.mjs"
import { cpuCount, describePinning, pinThisProcessToLoadCore } from "./pinning.mjs"
import { printCeilingTable, printContext, printFailures, printHttpTable, printKitVersusTwin, printSchedulerTable } from "./report.mjs"
import { createKitMerchant, prepareRoute, ROUTES, twinCredentials } from "./routes.mjs"
import { runSoak } from "./soak.mjs"
import { measureImportCost, printImportCost } from "./import-cost.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const CONNECTIONS = 50
// Fixed so a PostgreSQL database can be benched again: its stored secrets are sealed with this key.
const BENCH_MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`
const TMPFS_MAGIC = 0x01021994

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    soak: { type: "string" },
    "skip-build": { type: "boolean", default: false },
    "metrics-off": { type: "boolean", default: false }
  }
})
const wholeSeconds = (flag, value, min, max) => {
  const seconds = Number(value)
  if (!Number.isInteger(seconds) || seconds < min || seconds > max) throw new Error(`--${flag} must be a whole number of seconds from ${min} to ${max}, got "${value}"`)
  return seconds
}
// Every request is signed afresh, so no run is bounded by the host's 300 s timestamp tolerance.
const durationSeconds = wholeSeconds("duration", flags.duration, 1, 600)
const warmupSeconds = wholeSeconds("warmup", flags.warmup, 0, 60)
const soakSeconds = flags.soak === undefined ? undefined : wholeSeconds("soak", flags.soak, 1, 86_400)

/** @type {import("./processes.mjs").Server[]} */
const servers = []
const workDir = mkdtempSync(join(tmpdir(), "merchant-payments-bench-"))
let cleaned = false
const cleanupNow = () => {
  if (cleaned) return
  cleaned = true
  servers.forEach(killNow)
  rmSync(workDir, { recursive: true, force: true })
}
// Ctrl-C or a crash must not leave servers listening or data behind.
process.once("exit", cleanupNow)
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM"])) {
  process.once(signal, () => {
    cleanupNow()
    process.exit(130)
  })
}

// A postgres:// DATABASE_URL adds a PostgreSQL pass; anything else is never handed to the host.
const databaseUrl = process.env["DATABASE_URL"] ?? ""
const postgresUrl = /^postgres(ql)?:\/\//.test(databaseUrl) ? databaseUrl : undefined
const shownUrl = (url) => url.replace(/\/\/[^@/]*@/, (auth) => auth.replace(/:[^@]*@/, ":***@"))

const startAndWait = async (name, args, env, healthPath) => {
  const port = await freePort()
  const server = startNode(name, args, { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" }, join(workDir, `${servers.length}.log`))
  servers.push(server)
  const base = `http://127.0.0.1:${port}`
  try {
    await waitForOk(server, base + healthPath)
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- ${name} log ---\n${logTail(server)}`)
  }
  return { server, base }
}

/** One load on `server` (its own fresh process, so its idle and peak RSS are its own), then stop it. */
const measure = async (server, base, load) => {
  const idleRssMiB = rssMiB(server)
  const result = await runLoad({ base, connections: CONNECTIONS, warmupSeconds, durationSeconds, ...load })
  if (server.exitCode !== null) throw new Error(`${server.name} exited (${server.exitCode}) during the run:\n${logTail(server)}`)
  const measured = { ...result, idleRssMiB, peakRssMiB: peakRssMiB(server) }
  await stop(server)
  return measured
}

/** A hello server answering `/` with a small JSON. */
const benchHello = async (label, script) => {
  const { server, base } = await startAndWait(label, [join(HERE, script)], {}, "/")
  return { label, group: "floor", result: await measure(server, base, { kind: "plain", path: "/" }) }
}

/** The twin, one fresh process per route over one database file seeded with its merchant. */
const benchTwin = async () => {
  const credentials = twinCredentials()
  const env = {
    TWIN_DB: join(workDir, "twin.db"), TWIN_MERCHANT_KEY: credentials.merchant_key, TWIN_API_KEY: credentials.api_key,
    TWIN_CLIENT_SECRET: credentials.client_secret, BASE_URL: ""
  }
  const rows = []
  for (const route of ROUTES) {
    const { server, base } = await startAndWait("hand-written twin", [join(HERE, "twin-server.mjs")], env, "/healthz")
    const load = await prepareRoute(route, base, credentials)
    rows.push({ label: `twin ${route}`, group: "twin", route, result: await measure(server, base, load) })
  }
  return rows
}

/**
 * One store's host settings. The rate limit is raised as far as the host allows (1M per minute per
 * caller, far above what a run sends; every request is still counted). Empty means unset to the host:
 * never let the caller's shell point the bench at other keys or settings.
 */
const storeEnv = (dataDir, databaseUrl, masterKey) => ({
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  MASTER_KEY: masterKey,
  ADMIN_TOKEN,
  // The demo seed adds the sandbox USD gateway (on an empty store); the bench makes its own merchant.
  DEMO: "true",
  RATE_LIMIT_PER_MINUTE: "1000000",
  BASE_URL: "", SIGNATURE_TOLERANCE_SECONDS: "", CRYPTO_CURRENCIES: "", CLOCK: ""
})
const HOST_MAIN = join(ROOT, "dist", "hosts", "standalone", "main.js")
const sqliteEnv = () => storeEnv(join(workDir, "sqlite"), "", "")

/** The kit's host on one store; the merchant is made on the first host process and kept in the store. */
const startKit = async (store, env, credentials) => {
  mkdirSync(env.DATA_DIR, { recursive: true })
  const { server, base } = await startAndWait(`standalone host (${store})`, [HOST_MAIN, "serve"], env, "/healthz")
  return { server, base, credentials: credentials ?? (await createKitMerchant(base, ADMIN_TOKEN)) }
}

/**
 * Every signed route on one store, each on a fresh host process. With more than one variant (the
 * same store, other settings), each route is measured on each variant in turn, so the machine's drift
 * over the run falls on all of them alike.
 */
const benchKit = async (store, env, variants = []) => {
  const all = [{ store, env }, ...variants]
  const rows = []
  const credentials = new Map()
  for (const route of ROUTES) {
    for (const variant of all) {
      const kit = await startKit(variant.store, variant.env, credentials.get(variant.store))
      credentials.set(variant.store, kit.credentials)
      const load = await prepareRoute(route, kit.base, kit.credentials)
      rows.push({ label: `kit ${route} (${variant.store})`, group: "kit", route, store: variant.store, result: await measure(kit.server, kit.base, load) })
    }
  }
  return rows
}

const ceilings = async () => {
  const timing = { warmupSeconds, durationSeconds }
  const sqlite = await runSqliteCommits({ dir: workDir, ...timing })
  const rows = [{ label: "SQLite one-row commits, sequential", result: sqlite, note: "WAL, synchronous=FULL (the kit's pragmas)" }]
  if (postgresUrl !== undefined) {
    const pg = await runPostgresInserts({ url: postgresUrl, clients: CONNECTIONS, ...timing })
    rows.push({ label: `PostgreSQL one-row inserts, ${CONNECTIONS} clients`, result: pg,
      note: `synchronous_commit=${pg.synchronousCommit}, fsync=${pg.fsync}; RSS is PostgreSQL's own` })
  }
  return rows
}

const printHeader = () => {
  console.log(`load: autocannon in its own process per row, ${CONNECTIONS} keep-alive connections, ${warmupSeconds} s warm-up on the same ` +
    `connections (discarded) + ${durationSeconds} s measured, no coordinated-omission correction; every signed request signed afresh, ` +
    "every initiate with a fresh ref_trx")
  console.log(`machine: Node ${process.version}, ${cpuCount} CPUs; ${describePinning()}`)
  console.log(`stores: SQLite${postgresUrl === undefined ? "" : `, PostgreSQL at ${shownUrl(postgresUrl)} (the host migrates it and writes rows)`}`)
  if (databaseUrl !== "" && postgresUrl === undefined) console.log("DATABASE_URL is not postgres:// and is ignored: SQLite only")
  if (statfsSync(workDir).type === TMPFS_MAGIC) console.log(`!!!!! ${tmpdir()} is tmpfs: fsync costs nothing there, so no SQLite number is durable`)
  console.log("")
}

const main = async () => {
  if (!flags["skip-build"]) {
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
    if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`)
  }
  pinThisProcessToLoadCore()
  if (soakSeconds !== undefined) {
    console.log(`machine: Node ${process.version}, ${cpuCount} CPUs; ${describePinning()}`)
    const kit = await startKit("SQLite", sqliteEnv(), undefined)
    await prepareRoute("initiate-payment", kit.base, kit.credentials)
    await runSoak({ ...kit, seconds: soakSeconds, connections: CONNECTIONS })
    return
  }
  printHeader()
  printImportCost(measureImportCost(ROOT))
  console.log("")
  const http = []
  for (const [label, script] of [["bare node:http hello", "bare-server.mjs"], ["Express 5 hello", "express-hello.mjs"], ["@effect/platform hello", "platform-hello.mjs"]]) {
    http.push(await benchHello(label, script))
  }
  const durable = await ceilings()
  http.push(...(await benchTwin()))
  const metricsOff = { store: "SQLite, metrics off", env: { ...storeEnv(join(workDir, "sqlite-metrics-off"), "", ""), METRICS: "off" } }
  http.push(...(await benchKit("SQLite", sqliteEnv(), flags["metrics-off"] ? [metricsOff] : [])))
  if (postgresUrl !== undefined) http.push(...(await benchKit("PostgreSQL", storeEnv(join(workDir, "postgres"), postgresUrl, BENCH_MASTER_KEY))))

  printHttpTable(http)
  console.log("")
  printCeilingTable(durable)
  console.log("\nthe kit against its hand-written twin (Express 5 + better-sqlite3, same routes, same run; the twin runs on SQLite only):")
  printKitVersusTwin(http)
  console.log("")
  printContext(http, durable)
  if (postgresUrl !== undefined) {
    // After the HTTP rows, so the scheduler's databases and ticks never share the machine with a load.
    console.log("")
    // Its own throw-away databases need CREATEDB: without it the other rows still stand.
    await runSchedulerScale(postgresUrl).then(printSchedulerTable, (error) => console.log(`scheduler rows not measured: ${error.message}`))
  } else {
    console.log("\nscheduler rows: set DATABASE_URL to a postgres:// URL whose user may create databases (the scheduler runs on PostgreSQL)")
  }
  printFailures([...http, ...durable])
}

try {
  await main()
} catch (error) {
  console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  // Graceful first (the host closes SQLite on SIGTERM); the exit hook SIGKILLs whatever is left.
  await Promise.all(servers.map((server) => stop(server)))
  cleanupNow()
}
