// `npm run bench [-- --duration N --warmup N --skip-build]`: throughput of a signed merchant API
// call (GET /api/v1/site-info on the standalone host, SQLite) against a bare node:http server on the
// same machine. It prints numbers only; the PASS/BELOW TARGET line is information, never the exit code.
import { spawnSync } from "node:child_process"
import { createHmac } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { findWrk, runLoad } from "./load.mjs"
import { freePort, killNow, logTail, peakRssMiB, rssMiB, startNode, stop, waitForOk } from "./processes.mjs"
import { describePinning, pinThisProcessToLoadCore } from "./pinning.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const CONNECTIONS = 50
const TARGET_PERCENT = 35
const SITE_INFO = "/api/v1/site-info"

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    "skip-build": { type: "boolean", default: false }
  }
})
const durationSeconds = Number(flags.duration)
const warmupSeconds = Number(flags.warmup)
// Each run is signed once with a fresh timestamp; the host accepts 300 s of skew, so keep runs well inside it.
if (!Number.isInteger(durationSeconds) || durationSeconds < 1 || durationSeconds > 240) {
  throw new Error(`--duration must be a whole number of seconds from 1 to 240, got "${flags.duration}"`)
}
if (!Number.isInteger(warmupSeconds) || warmupSeconds < 0 || warmupSeconds > 60) {
  throw new Error(`--warmup must be a whole number of seconds from 0 to 60, got "${flags.warmup}"`)
}

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

/** Headers of a signed GET of site-info; called per run so each run gets a fresh timestamp. */
const signedHeaders = (credentials) => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  // Empty body: the signed payload still ends with the separating dot.
  const signature = createHmac("sha256", credentials.client_secret).update(`${timestamp}.GET.${SITE_INFO}.`).digest("hex")
  return {
    "X-Environment": "sandbox",
    "X-Merchant-Key": credentials.merchant_key,
    "X-API-Key": credentials.api_key,
    "X-Timestamp": timestamp,
    "X-Signature": `sha256=${signature}`
  }
}

const wrk = findWrk()

/** Warm-up (discarded: JIT, SQLite page cache, connection setup), then the measured run. */
const measure = async (server, url, headers) => {
  const idleRssMiB = rssMiB(server)
  if (warmupSeconds > 0) await runLoad({ wrk, workDir, url, headers: headers(), connections: CONNECTIONS, durationSeconds: warmupSeconds })
  const result = await runLoad({ wrk, workDir, url, headers: headers(), connections: CONNECTIONS, durationSeconds })
  if (server.exitCode !== null) throw new Error(`${server.name} exited (${server.exitCode}) during the run:\n${logTail(server)}`)
  return { ...result, idleRssMiB, peakRssMiB: peakRssMiB(server) }
}

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

/** A server that answers `/` with a small JSON, measured alone (one server at a time: an idle one still holds memory and timers). */
const benchPlain = async (name, script) => {
  const { server, base } = await startAndWait(name, [join(HERE, script)], {}, "/")
  const result = await measure(server, `${base}/`, () => ({}))
  await stop(server)
  return result
}

const benchSiteInfo = async () => {
  const dataDir = join(workDir, "data")
  mkdirSync(dataDir)
  const env = {
    DATA_DIR: dataDir,
    DEMO: "true",
    // The brief asked for 100000000, but the host refuses anything above 1_000_000 (host-config.ts).
    // 1M per minute per caller is still far above what one run sends, and every request is counted.
    RATE_LIMIT_PER_MINUTE: "1000000",
    // Empty means unset to the host: never let the caller's shell point the bench at a real store or keys.
    DATABASE_URL: "", MASTER_KEY: "", ADMIN_TOKEN: "", BASE_URL: "", SIGNATURE_TOLERANCE_SECONDS: "", CRYPTO_CURRENCIES: ""
  }
  const main = join(ROOT, "dist", "hosts", "standalone", "main.js")
  const { server, base } = await startAndWait("standalone host", [main, "serve"], env, "/healthz")
  const credentials = JSON.parse(readFileSync(join(dataDir, "demo-credentials.json"), "utf8"))
  const url = base + SITE_INFO
  // One request first: a signing mistake should fail loudly here, not as 50 s of 401s.
  const probe = await fetch(url, { headers: signedHeaders(credentials) })
  const probeBody = await probe.text()
  if (probe.status < 200 || probe.status > 299) throw new Error(`signed site-info probe answered ${probe.status}: ${probeBody}`)
  const result = await measure(server, url, () => signedHeaders(credentials))
  await stop(server)
  return result
}

const fixed = (value, digits) => (value === undefined || Number.isNaN(value) ? "n/a" : value.toFixed(digits))

const printTable = (rows) => {
  const head = ["target", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors", "requests", "idle RSS MiB", "peak RSS MiB"]
  const body = rows.map(([name, r]) => [
    name, fixed(r.rps, 1), fixed(r.p50Ms, 2), fixed(r.p99Ms, 2), String(r.non2xx), String(r.errors), String(r.requests), fixed(r.idleRssMiB, 1), fixed(r.peakRssMiB, 1)
  ])
  const widths = head.map((title, column) => Math.max(title.length, ...body.map((row) => row[column].length)))
  for (const row of [head, ...body]) console.log(row.map((cell, column) => cell.padEnd(widths[column])).join("  ").trimEnd())
}

const main = async () => {
  if (!flags["skip-build"]) {
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
    if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`)
  }
  if (wrk === undefined) pinThisProcessToLoadCore()
  const loader = wrk === undefined ? "autocannon (in this process)" : `wrk (${wrk})`
  console.log(`load: ${loader}; ${CONNECTIONS} connections; ${warmupSeconds} s warm-up + ${durationSeconds} s measured per target`)
  console.log(`machine: Node ${process.version}, ${availableParallelism()} CPUs; ${describePinning()}\n`)

  const bare = await benchPlain("bare node:http", "bare-server.mjs")
  const floor = await benchPlain("@effect/platform hello", "platform-hello.mjs")
  const site = await benchSiteInfo()
  printTable([["bare node:http", bare], ["@effect/platform hello", floor], ["signed site-info", site]])
  console.log(`\n@effect/platform hello / bare node:http: ${((floor.rps / bare.rps) * 100).toFixed(1)} % (the framework's own ceiling)`)

  const percent = (site.rps / bare.rps) * 100
  const verdict = percent >= TARGET_PERCENT ? "PASS" : "BELOW TARGET"
  console.log(`\nsigned site-info / bare node:http: ${fixed(percent, 1)} % (target >= ${TARGET_PERCENT} %): ${verdict}`)
  if (site.non2xx > 0 || site.errors > 0) {
    console.log(`\n!!!!! WARNING: signed site-info had ${site.non2xx} non-2xx responses and ${site.errors} socket errors/timeouts.`)
    console.log("!!!!! Its req/s counts failures too, so the numbers above are NOT a valid measurement.")
  }
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
