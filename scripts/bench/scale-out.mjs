// `npm run bench:scale-out` (DATABASE_URL=postgres://... of a throw-away database) measures how the
// kit scales past one process: the same signed loads against one standalone host, then against two
// hosts sharing the database, in one run. Nothing is pinned (two hosts need both cores, and the load
// generator shares them too), so read the two rows against each other, never against `npm run bench`.
// Numbers only.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runLoad } from "./load.mjs"
import { freePort, killNow, logTail, peakRssMiB, startNode, stop, waitForOk } from "./processes.mjs"
import { createKitMerchant, prepareRoute } from "./routes.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const HOST_MAIN = join(ROOT, "dist", "hosts", "standalone", "main.js")
const CONNECTIONS = 50
const MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`
const UNPINNED = []

const { values: flags } = parseArgs({
  options: { duration: { type: "string", default: "10" }, warmup: { type: "string", default: "2" }, "skip-build": { type: "boolean", default: false } }
})
const durationSeconds = Number(flags.duration)
const warmupSeconds = Number(flags.warmup)
const databaseUrl = process.env["DATABASE_URL"] ?? ""
if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error("scale-out needs DATABASE_URL=postgres://... (a throw-away database: the hosts write rows)")
  process.exit(2)
}

const workDir = mkdtempSync(join(tmpdir(), "merchant-payments-scale-"))
/** @type {import("./processes.mjs").Server[]} */
const servers = []
process.once("exit", () => {
  servers.forEach(killNow)
  rmSync(workDir, { recursive: true, force: true })
})

const startHost = async () => {
  const port = await freePort()
  const dataDir = join(workDir, String(servers.length))
  mkdirSync(dataDir, { recursive: true })
  const env = {
    ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: databaseUrl, MASTER_KEY: MASTER_KEY,
    ADMIN_TOKEN, DEMO: "true", RATE_LIMIT_PER_MINUTE: "1000000", BASE_URL: "", CLOCK: "", LOG_LEVEL: "warn"
  }
  const server = startNode(`host ${servers.length + 1}`, [HOST_MAIN, "serve"], env, join(workDir, `${servers.length}.log`), UNPINNED)
  servers.push(server)
  const base = `http://127.0.0.1:${port}`
  try {
    await waitForOk(server, `${base}/healthz`)
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${logTail(server)}`)
  }
  return { server, base }
}

/** The load split evenly over `hosts`, each share from its own autocannon process, all at once. */
const loadAcross = async (hosts, route, credentials) => {
  const loads = await Promise.all(hosts.map((host) => prepareRoute(route, host.base, credentials)))
  const results = await Promise.all(hosts.map((host, i) =>
    runLoad({ base: host.base, connections: CONNECTIONS / hosts.length, warmupSeconds, durationSeconds, ...loads[i] }, undefined, UNPINNED)))
  const rps = results.reduce((sum, r) => sum + r.rps, 0)
  const failures = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0)
  const p99 = Math.max(...results.map((r) => r.p99Ms ?? 0))
  return { rps, p99, failures }
}

const main = async () => {
  if (!flags["skip-build"]) {
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
    if (build.status !== 0) throw new Error("npm run build failed")
  }
  console.log(`${CONNECTIONS} connections split over the hosts, ${warmupSeconds} s warm-up + ${durationSeconds} s measured, ` +
    "nothing pinned: hosts and load generators share this machine's cores")
  const first = await startHost()
  const credentials = await createKitMerchant(first.base, ADMIN_TOKEN)
  const rows = []
  for (const route of ["site-info", "initiate-payment"]) {
    const one = await loadAcross([first], route, credentials)
    rows.push({ route, hosts: 1, ...one })
  }
  const second = await startHost()
  for (const route of ["site-info", "initiate-payment"]) {
    const two = await loadAcross([first, second], route, credentials)
    rows.push({ route, hosts: 2, ...two })
  }
  console.log("\n| route | hosts | req/s | worst host p99 ms | failures | peak RSS MiB per host |")
  console.log("|---|---|---|---|---|---|")
  const rss = servers.map((s) => peakRssMiB(s)?.toFixed(0)).join(" / ")
  for (const row of rows) console.log(`| ${row.route} | ${row.hosts} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(1)} | ${row.failures} | ${row.hosts === 2 ? rss : ""} |`)
  for (const route of ["site-info", "initiate-payment"]) {
    const [one, two] = [1, 2].map((n) => rows.find((row) => row.route === route && row.hosts === n))
    console.log(`${route}: two hosts / one host = ${(two.rps / one.rps).toFixed(2)}x`)
  }
}

try {
  await main()
} catch (error) {
  console.error(`\nscale-out failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  await Promise.all(servers.map((server) => stop(server)))
}
