// `npm run bench [-- --duration N --warmup N --rounds N --routes a,b --stores sqlite,postgres --noisy
// --skip-floors --skip-build --dashboard-payments N]` measures, in one run on this machine, the kit's
// standalone host beside its hand-written twin (twin-server.mjs: Express 5 + better-sqlite3 with the
// signature check and nothing else) on every signed route: on SQLite, and when DATABASE_URL is
// postgres:// on that database too
// (the host migrates it and writes rows: use a throw-away one). Runs alternate: each of `--rounds`
// rounds (default 5) runs, per route, the twin and each kit store back to back, who goes first rotating
// from round to round, each run a fresh server process, so the machine's drift falls on all of them
// alike. Every row prints the median of its runs and their spread (min-max) of req/s, p99, CPU per
// request and bytes allocated per request (both from the server's own counters, read by a preloaded
// probe, probe.mjs, at the opening and closing of the measured window) and peak RSS; then each kit
// row as ratios of medians to its twin. `--noisy` runs a CPU-and-memory-bandwidth hog
// (noisy-neighbour.mjs) beside the servers for the whole HTTP part. Unless `--skip-floors`, also what
// loading costs (import-cost.mjs), the hellos of bare node:http, Express 5 and @effect/platform (one
// run each), the durable-commit ceilings (SQLite one-row commits with the kit's pragmas; PostgreSQL
// one-row inserts at the bench's concurrency) and, with PostgreSQL, the subscription scheduler's rows
// at 10,000 and 200,000 subscriptions (scheduler-scale.mjs), and per store the webhook rows
// (webhook-throughput.mjs) and the dashboard's over `--dashboard-payments` payments (default a
// million; dashboard-scale.mjs). `--metrics-off` adds the kit on SQLite
// with METRICS=off to the rotation: what counting costs. `--soak SECONDS` runs the soak of soak.mjs
// instead. Numbers only, never an exit code: the issue's targets are for a reader of the output.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runLoad, runPostgresInserts, runSchedulerScale, runSqliteCommits } from "./load.mjs"
import { freePort, killNow, logTail, peakRssMiB, probeSnapshot, rssMiB, startNode, startProbedNode, stop, waitForOk } from "./processes.mjs"
import { cpuCount, describePinning, loadPrefix, pinThisProcessToLoadCore, unpinnedPrefix } from "./pinning.mjs"
import {
  printCeilingTable, printContext, printFailures, printHttpTable, printKitVersusTwin, printSchedulerTable, summarise
} from "./report.mjs"
import { createKitMerchant, prepareRoute, ROUTES, twinCredentials } from "./routes.mjs"
import { runSoak } from "./soak.mjs"
import { measureImportCost, printImportCost } from "./import-cost.mjs"
import { printWebhookRows, runWebhookThroughput } from "./webhook-throughput.mjs"
import { dashboardScale } from "./dashboard-scale.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const CONNECTIONS = 50
// Fixed so a PostgreSQL database can be benched again: its stored secrets are sealed with this key.
const BENCH_MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`
const TMPFS_MAGIC = 0x01021994
const STORES = /** @type {const} */ (["sqlite", "postgres"])

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    rounds: { type: "string", default: "5" },
    routes: { type: "string", default: ROUTES.join(",") },
    stores: { type: "string", default: STORES.join(",") },
    noisy: { type: "boolean", default: false },
    "skip-floors": { type: "boolean", default: false },
    soak: { type: "string" },
    "skip-build": { type: "boolean", default: false },
    "metrics-off": { type: "boolean", default: false },
    "dashboard-payments": { type: "string", default: "1000000" }
  }
})
const whole = (flag, value, min, max, unit = " seconds") => {
  const number = Number(value)
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`--${flag} must be a whole number${unit} from ${min} to ${max}, got "${value}"`)
  return number
}
/** A comma-separated flag whose every item is one of `allowed`, in `allowed`'s order. */
const subset = (flag, value, allowed) => {
  const items = value.split(",").map((item) => item.trim()).filter((item) => item !== "")
  const unknown = items.filter((item) => !allowed.includes(item))
  if (unknown.length > 0 || items.length === 0) throw new Error(`--${flag} takes a comma-separated list of ${allowed.join(", ")}; got "${value}"`)
  return allowed.filter((item) => items.includes(item))
}
// Every request is signed afresh, so no run is bounded by the host's 300 s timestamp tolerance.
const durationSeconds = whole("duration", flags.duration, 1, 600)
const warmupSeconds = whole("warmup", flags.warmup, 0, 60)
const rounds = whole("rounds", flags.rounds, 1, 50, "")
const routes = subset("routes", flags.routes, ROUTES)
const stores = subset("stores", flags.stores, STORES)
const soakSeconds = flags.soak === undefined ? undefined : whole("soak", flags.soak, 1, 86_400)
const dashboardPayments = whole("dashboard-payments", flags["dashboard-payments"], 1_000, 10_000_000, " payments")

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
// Ctrl-C or a crash must not leave servers (or the noisy neighbour) running or data behind.
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
const withPostgres = postgresUrl !== undefined && stores.includes("postgres")

/** A server with the probe preloaded (so its CPU and allocation can be read), once it answers 200 on `healthPath`. */
const startAndWait = async (name, args, env, healthPath) => {
  const port = await freePort()
  const server = startProbedNode(name, args, { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" }, join(workDir, `${servers.length}.log`))
  servers.push(server)
  const base = `http://127.0.0.1:${port}`
  await waitForOk(server, base + healthPath)
  return { server, base }
}

/**
 * One load on `server` (its own fresh process, so its idle and peak RSS are its own), then stop it.
 * The server's probe is read when the load process says the measured window opens and again when
 * it closes: CPU and allocation per request are the server's own, over the responses it finished
 * between those readings.
 * @returns {Promise<import("./report.mjs").Measured>}
 */
const measure = async (server, base, load) => {
  const idleRssMiB = rssMiB(server)
  /** @type {Record<string, Promise<{ snapshot?: import("./processes.mjs").ProbeSnapshot, error?: unknown }>>} */
  const marks = {}
  const onMark = (mark) => {
    marks[mark] = probeSnapshot(server).then((snapshot) => ({ snapshot }), (error) => ({ error }))
  }
  const result = await runLoad({ base, connections: CONNECTIONS, warmupSeconds, durationSeconds, ...load }, undefined, loadPrefix, onMark)
  if (server.exitCode !== null) throw new Error(`${server.name} exited (${server.exitCode}) during the run:\n${logTail(server)}`)
  const [from, to] = await Promise.all([marks["measuring"], marks["measured"]])
  // Work and responses are the server's own, read in one instant each, so a late reading only moves
  // the window. A window the server saw as less than half the load's (a starved server reads its
  // counters only on its next turn), or a probe that never answered, leaves CPU and allocation out
  // of this run (n/a) rather than misread.
  const probe = from?.snapshot !== undefined && to?.snapshot !== undefined ? { from: from.snapshot, to: to.snapshot } : undefined
  const responses = probe === undefined ? 0 : probe.to.responses - probe.from.responses
  const serverWindowSeconds = probe === undefined ? 0 : (probe.to.atMs - probe.from.atMs) / 1000
  const probeValid = probe !== undefined && responses > 0 && serverWindowSeconds >= result.measuredSeconds / 2
  const perRequest = (key) => (probe === undefined || !probeValid ? undefined : (probe.to[key] - probe.from[key]) / responses)
  const probeProblem = probeValid
    ? undefined
    : probe === undefined
      ? `its probe was not read (${String(from?.error ?? to?.error ?? "no window marks")})`
      : `it saw ${serverWindowSeconds.toFixed(1)} s of the ${result.measuredSeconds.toFixed(1)} s window (${responses} responses)`
  const measured = {
    ...result, idleRssMiB, peakRssMiB: peakRssMiB(server), cpuUsPerRequest: perRequest("cpuUs"), allocBytesPerRequest: perRequest("allocatedBytes"),
    probeProblem
  }
  await stop(server)
  return measured
}

/** One line per run as it finishes, so a long run shows where it is and a stray run is visible. */
const printRun = (label, round, measured) => {
  const shown = (value, digits, width) => (value === undefined || value === null ? "n/a" : value.toFixed(digits)).padStart(width)
  const failed = measured.non2xx + measured.errors > 0 || measured.requests === 0
  console.log(`  round ${round + 1}/${rounds}  ${label.padEnd(34)} ${shown(measured.rps, 0, 6)} req/s  p99 ${shown(measured.p99Ms, 1, 7)} ms  ` +
    `${shown(measured.cpuUsPerRequest, 0, 6)} us CPU/req  ${shown((measured.allocBytesPerRequest ?? NaN) / 1024, 1, 6)} KiB/req` +
    `${failed ? `  !! ${measured.requests} answered, ${measured.non2xx} non-2xx, ${measured.errors} errors` : ""}` +
    `${measured.probeProblem === undefined ? "" : `  !! CPU and allocation n/a: ${measured.probeProblem}`}`)
}

/** The hellos, one run each: the floors under any framework. */
const benchHellos = async () => {
  const rows = []
  for (const [label, script] of [["bare node:http hello", "bare-server.mjs"], ["Express 5 hello", "express-hello.mjs"], ["@effect/platform hello", "platform-hello.mjs"]]) {
    const { server, base } = await startAndWait(label, [join(HERE, script)], {}, "/")
    const measured = { ...(await measure(server, base, { kind: "plain", path: "/" })), round: 0 }
    printRun(label, 0, measured)
    rows.push(summarise({ label, group: "floor", runs: [measured] }))
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

/**
 * @typedef {object} Contender  one side of the comparison: started afresh for every run
 * @property {string} label
 * @property {"twin"|"kit"} group
 * @property {string} [store]
 * @property {() => Promise<{ server: import("./processes.mjs").Server, base: string, credentials: object }>} start
 */

/** The twin over one database file seeded with its merchant (the same merchant in every process). */
const twinContender = () => {
  const credentials = twinCredentials()
  const env = {
    TWIN_DB: join(workDir, "twin.db"), TWIN_MERCHANT_KEY: credentials.merchant_key, TWIN_API_KEY: credentials.api_key,
    TWIN_CLIENT_SECRET: credentials.client_secret, BASE_URL: ""
  }
  return {
    label: "twin", group: "twin",
    start: async () => ({ ...(await startAndWait("hand-written twin", [join(HERE, "twin-server.mjs")], env, "/healthz")), credentials })
  }
}

/** The kit's host on one store; the merchant is made on its first process and kept in the store. */
const kitContender = (store, env) => {
  /** @type {object|undefined} */
  let credentials
  return {
    label: `kit (${store})`, group: "kit", store,
    start: async () => {
      mkdirSync(env.DATA_DIR, { recursive: true })
      const { server, base } = await startAndWait(`standalone host (${store})`, [HOST_MAIN, "serve"], env, "/healthz")
      credentials ??= await createKitMerchant(base, ADMIN_TOKEN)
      return { server, base, credentials }
    }
  }
}

/** Who is measured: the twin, the kit on each chosen store, and the kit with metrics off if asked. */
const contenders = () => [
  twinContender(),
  ...(stores.includes("sqlite") ? [kitContender("SQLite", storeEnv(join(workDir, "sqlite"), "", ""))] : []),
  ...(withPostgres ? [kitContender("PostgreSQL", storeEnv(join(workDir, "postgres"), postgresUrl, BENCH_MASTER_KEY))] : []),
  ...(flags["metrics-off"] && stores.includes("sqlite")
    ? [kitContender("SQLite, metrics off", { ...storeEnv(join(workDir, "sqlite-metrics-off"), "", ""), METRICS: "off" })]
    : [])
]

/**
 * Every chosen route on every contender, `rounds` times over. Within a round each route runs on
 * every contender back to back, the first of them rotating from round to round, so neither side
 * always runs on a warmer or cooler machine.
 */
const benchRounds = async () => {
  const sides = contenders()
  /** @type {Map<string, import("./report.mjs").Measured[]>} */
  const runs = new Map()
  for (let round = 0; round < rounds; round += 1) {
    for (const route of routes) {
      const order = sides.map((_, index) => sides[(index + round) % sides.length])
      for (const side of order) {
        const { server, base, credentials } = await side.start()
        const load = await prepareRoute(route, base, credentials)
        const measured = { ...(await measure(server, base, load)), round }
        printRun(`${side.label} ${route}`, round, measured)
        const key = `${side.label} ${route}`
        runs.set(key, [...(runs.get(key) ?? []), measured])
      }
    }
  }
  return sides.flatMap((side) => routes.map((route) => summarise({
    label: side.group === "twin" ? `twin ${route}` : `kit ${route} (${side.store})`, group: side.group, route, store: side.store,
    runs: runs.get(`${side.label} ${route}`) ?? []
  })))
}

const ceilings = async () => {
  const timing = { warmupSeconds, durationSeconds }
  const sqlite = await runSqliteCommits({ dir: workDir, ...timing })
  const rows = [{ label: "SQLite one-row commits, sequential", result: sqlite, note: "WAL, synchronous=FULL (the kit's pragmas)" }]
  if (withPostgres) {
    const pg = await runPostgresInserts({ url: postgresUrl, clients: CONNECTIONS, ...timing })
    rows.push({ label: `PostgreSQL one-row inserts, ${CONNECTIONS} clients`, result: pg,
      note: `synchronous_commit=${pg.synchronousCommit}, fsync=${pg.fsync}; RSS is PostgreSQL's own` })
  }
  return rows
}

/** The noisy neighbour, unpinned at normal priority; a Server, so every exit path kills it too. */
const startNoisyNeighbour = () => {
  const neighbour = startNode("noisy neighbour", [join(HERE, "noisy-neighbour.mjs")], process.env, join(workDir, "noisy.log"), unpinnedPrefix)
  servers.push(neighbour)
  return neighbour
}

/** Seconds a run of the HTTP part takes beyond its load: starting the server, the probe request, stopping. */
const RUN_OVERHEAD_SECONDS = 4
const estimateMinutes = () => {
  const run = warmupSeconds + durationSeconds + 1 + RUN_OVERHEAD_SECONDS
  const http = rounds * routes.length * contenders().length * run
  // The webhook rows (about a minute a store) and the dashboard's (its seed and pages, about three a
  // million payments) come with the floors.
  const rows = (withPostgres ? 2 : 1) * (90 + (180 * dashboardPayments) / 1_000_000)
  const floors = flags["skip-floors"] ? 0 : 30 + 3 * run + (withPostgres ? 2 : 1) * (warmupSeconds + durationSeconds + 2) + rows
  return { http: http / 60, floors: floors / 60 }
}

const printHeader = () => {
  console.log(`load: autocannon in its own process per run, ${CONNECTIONS} keep-alive connections, ${warmupSeconds} s warm-up on the same ` +
    `connections (discarded) + ${durationSeconds} s measured, no coordinated-omission correction; every signed request signed afresh, ` +
    "every initiate with a fresh ref_trx")
  console.log(`runs: ${rounds} round(s) of ${routes.join(", ")}; in each round every route runs on ${contenders().map((side) => side.label).join(", ")} ` +
    "back to back, the first rotating per round, each run a fresh server; rows print the median (min-max) of their runs; " +
    "CPU and allocation per request from the server's own counters (preloaded probe) over the measured window")
  console.log(`machine: Node ${process.version}, ${cpuCount} CPUs; ${describePinning()}`)
  console.log(flags.noisy
    ? "noisy: ON, a neighbour copying a 128 MiB buffer back and forth (a core of CPU and a stream of memory traffic) runs unpinned at normal priority beside the servers for the whole HTTP part"
    : "noisy: off (`--noisy` runs a CPU-and-memory-bandwidth hog beside the servers)")
  console.log(`stores: ${stores.includes("sqlite") ? "SQLite" : "(kit on SQLite not asked for)"}${withPostgres ? `, PostgreSQL at ${shownUrl(postgresUrl)} (the host migrates it and writes rows)` : ""}`)
  if (stores.includes("postgres") && postgresUrl === undefined) {
    console.log(databaseUrl === "" ? "PostgreSQL: set DATABASE_URL to a postgres:// URL to add it" : "DATABASE_URL is not postgres:// and is ignored: no PostgreSQL rows")
  }
  if (statfsSync(workDir).type === TMPFS_MAGIC) console.log(`!!!!! ${tmpdir()} is tmpfs: fsync costs nothing there, so no SQLite number is durable`)
  const { http, floors } = estimateMinutes()
  console.log(`estimated time: about ${Math.ceil(http + floors)} min (HTTP rounds ${http.toFixed(1)} min` +
    `${flags["skip-floors"] ? ", floors skipped" : `, floors ${floors.toFixed(1)} min${withPostgres ? ", plus the scheduler rows" : ""}`})`)
  console.log("")
}

/**
 * The webhook rows (bench:webhooks: a backlog drained, then 800 events a second with one busy
 * merchant) and the dashboard's (bench:dashboard: every page and the statement CSV over a big
 * store), per store, after the HTTP rows and never beside the noisy neighbour. A row that cannot be
 * measured (PostgreSQL without CREATEDB, say) says so and the others stand.
 */
const benchWebhooksAndDashboard = async () => {
  const benched = [...(stores.includes("sqlite") ? ["sqlite"] : []), ...(withPostgres ? ["postgres"] : [])]
  for (const store of benched) {
    console.log(`\nwebhooks (${store}), \`npm run bench:webhooks -- --store ${store} --duration 8\`:`)
    await runWebhookThroughput({ store, durationSeconds: 8, skipBuild: true, databaseUrl: postgresUrl ?? "", progress: () => {} })
      .then((rows) => printWebhookRows(rows), (error) => console.log(`webhook rows (${store}) not measured: ${error.message}`))
  }
  for (const store of benched) {
    console.log("")
    await dashboardScale({ store, payments: dashboardPayments, databaseUrl: postgresUrl ?? "" })
      .catch((error) => console.log(`dashboard rows (${store}) not measured: ${error.message}`))
  }
}

const main = async () => {
  if (!flags["skip-build"]) {
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
    if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`)
  }
  pinThisProcessToLoadCore()
  if (soakSeconds !== undefined) {
    console.log(`machine: Node ${process.version}, ${cpuCount} CPUs; ${describePinning()}`)
    const kit = await kitContender("SQLite", storeEnv(join(workDir, "sqlite"), "", "")).start()
    await prepareRoute("initiate-payment", kit.base, kit.credentials)
    await runSoak({ ...kit, seconds: soakSeconds, connections: CONNECTIONS })
    return
  }
  const floors = !flags["skip-floors"]
  printHeader()
  // Quiet parts first: loading and the commit ceilings are never run beside the noisy neighbour.
  if (floors) {
    printImportCost(measureImportCost(ROOT))
    console.log("")
  }
  const durable = floors ? await ceilings() : []
  const neighbour = flags.noisy ? startNoisyNeighbour() : undefined
  console.log("runs as they finish:")
  const http = [...(floors ? await benchHellos() : []), ...(await benchRounds())]
  if (neighbour !== undefined) await stop(neighbour)

  console.log("")
  printHttpTable(http)
  if (floors) {
    console.log("")
    printCeilingTable(durable)
  }
  console.log("\nthe kit against its hand-written twin, medians (Express 5 + better-sqlite3, same routes, same rounds; the twin runs on SQLite only):")
  printKitVersusTwin(http)
  if (floors) {
    console.log("")
    printContext(http, durable)
    if (withPostgres) {
      // After the HTTP rows, so the scheduler's databases and ticks never share the machine with a load.
      console.log("")
      // Its own throw-away databases need CREATEDB: without it the other rows still stand.
      await runSchedulerScale(/** @type {string} */ (postgresUrl)).then(printSchedulerTable, (error) => console.log(`scheduler rows not measured: ${error.message}`))
    } else {
      console.log("\nscheduler rows: set DATABASE_URL to a postgres:// URL whose user may create databases (the scheduler runs on PostgreSQL)")
    }
    await benchWebhooksAndDashboard()
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
