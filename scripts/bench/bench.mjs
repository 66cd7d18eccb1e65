// `npm run bench [-- --duration N --warmup N --skip-build]`: throughput of signed merchant API calls
// on the standalone host (GET /api/v1/site-info, GET /api/v1/verify-payment/{trxId}, POST
// /api/v1/initiate-payment) against a bare node:http server on the same machine, on SQLite and, when
// DATABASE_URL is a postgres:// URL, on that PostgreSQL database too (the host migrates it and writes
// rows: use a throw-away one). It prints numbers only; PASS/BELOW TARGET is information, never the exit code.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { availableParallelism, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { findWrk, runLoad, runNodeLoad } from "./load.mjs"
import { freePort, killNow, logTail, peakRssMiB, rssMiB, startNode, stop, waitForOk } from "./processes.mjs"
import { describePinning, pinThisProcessToLoadCore } from "./pinning.mjs"
import { INITIATE, initiateBody, signedHeaders } from "./signing.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const CONNECTIONS = 50
const SITE_INFO = "/api/v1/site-info"
/** Each signed target's share of bare node:http's req/s it should reach (information only). */
const TARGET_PERCENT = { "signed site-info": 35, "signed verify-payment": 25, "signed initiate-payment": 12 }
// Fixed so a PostgreSQL database can be benched again: its stored secrets are sealed with this key.
const BENCH_MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`

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

const wrk = findWrk()
const loader = wrk === undefined ? "autocannon" : "wrk"

// A postgres:// DATABASE_URL adds a PostgreSQL pass; anything else is never handed to the host.
const databaseUrl = process.env["DATABASE_URL"] ?? ""
const postgresUrl = /^postgres(ql)?:\/\//.test(databaseUrl) ? databaseUrl : undefined
const shownUrl = (url) => url.replace(/\/\/[^@/]*@/, (auth) => auth.replace(/:[^@]*@/, ":***@"))

/** Fixed headers, signed afresh for each run (the host accepts 300 s of skew), loaded by wrk or autocannon. */
const fixedLoad = (url, headers) => (seconds) =>
  runLoad({ wrk, workDir, url, headers: headers(), connections: CONNECTIONS, durationSeconds: seconds })

/** Warm-up (discarded: JIT, SQLite page cache, connection setup), then the measured run. */
const measure = async (server, load) => {
  const idleRssMiB = rssMiB(server)
  if (warmupSeconds > 0) await load(warmupSeconds)
  const result = await load(durationSeconds)
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
  const result = await measure(server, fixedLoad(`${base}/`, () => ({})))
  await stop(server)
  return { ...result, loader }
}

/** One request first: a signing or setup mistake should fail loudly here, not as a run of 401s. */
const expectOk = async (what, response) => {
  const text = await response.text()
  if (response.status < 200 || response.status > 299) throw new Error(`${what} answered ${response.status}: ${text}`)
  return JSON.parse(text)
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

/** A fresh approved merchant with USD, a sandbox USD wallet and sandbox credentials, through the admin API. */
const createMerchant = async (base) => {
  const admin = (method, path, body) =>
    fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then((response) => expectOk(`admin ${method} ${path}`, response))
  const merchant = await admin("POST", "/merchants", { name: "Bench merchant", status: "approved" })
  await admin("PUT", `/merchants/${merchant.id}/currencies`, { currency_codes: ["USD"] })
  await admin("POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "sandbox" })
  return admin("POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" })
}

/** Per target, on its own fresh host process (so its idle and peak RSS are its own): probe, then load. */
const SIGNED_TARGETS = [
  ["signed site-info", async (base, credentials) => {
    const url = base + SITE_INFO
    await expectOk("signed site-info probe", await fetch(url, { headers: signedHeaders(credentials, "GET", SITE_INFO) }))
    return { loader, load: fixedLoad(url, () => signedHeaders(credentials, "GET", SITE_INFO)) }
  }],
  ["signed verify-payment", async (base, credentials) => {
    const body = initiateBody(`bench-verify-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`)
    const created = await expectOk("signed initiate-payment (for verify)",
      await fetch(base + INITIATE, { method: "POST", body, headers: signedHeaders(credentials, "POST", INITIATE, body) }))
    const path = `/api/v1/verify-payment/${created.info.trx_id}`
    await expectOk("signed verify-payment probe", await fetch(base + path, { headers: signedHeaders(credentials, "GET", path) }))
    return { loader, load: fixedLoad(base + path, () => signedHeaders(credentials, "GET", path)) }
  }],
  ["signed initiate-payment", async (base, credentials) => {
    const body = initiateBody(`bench-probe-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`)
    await expectOk("signed initiate-payment probe",
      await fetch(base + INITIATE, { method: "POST", body, headers: signedHeaders(credentials, "POST", INITIATE, body) }))
    const script = join(HERE, "initiate-load.mjs")
    return {
      loader: "autocannon (child)",
      load: (seconds) => runNodeLoad(script, { base, credentials, connections: CONNECTIONS, durationSeconds: seconds })
    }
  }]
]

/** Every signed target on one store; the merchant is made on the first host and kept in the store. */
const benchStore = async (label, env) => {
  const main = join(ROOT, "dist", "hosts", "standalone", "main.js")
  /** @type {Array<[string, object]>} */
  const rows = []
  mkdirSync(env.DATA_DIR, { recursive: true })
  let credentials
  for (const [name, prepare] of SIGNED_TARGETS) {
    const { server, base } = await startAndWait(`standalone host (${label})`, [main, "serve"], env, "/healthz")
    credentials ??= await createMerchant(base)
    const { loader: used, load } = await prepare(base, credentials)
    rows.push([`${name} (${label})`, { ...(await measure(server, load)), loader: used, target: TARGET_PERCENT[name] }])
    await stop(server)
  }
  return rows
}

const fixed = (value, digits) => (value === undefined || Number.isNaN(value) ? "n/a" : value.toFixed(digits))

const printTable = (rows, bare) => {
  const head = ["target", "req/s", "vs bare", "p50 ms", "p99 ms", "non-2xx", "errors", "requests", "idle RSS MiB", "peak RSS MiB", "load"]
  const body = rows.map(([name, r]) => [
    name, fixed(r.rps, 1), `${fixed((r.rps / bare.rps) * 100, 1)} %`, fixed(r.p50Ms, 2), fixed(r.p99Ms, 2), String(r.non2xx), String(r.errors),
    String(r.requests), fixed(r.idleRssMiB, 1), fixed(r.peakRssMiB, 1), r.loader
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
  console.log(`load: ${wrk === undefined ? "autocannon (in this process)" : `wrk (${wrk})`}, initiate-payment: autocannon in a child process` +
    ` (a fresh body and signature per request); ${CONNECTIONS} connections; ${warmupSeconds} s warm-up + ${durationSeconds} s measured per target`)
  console.log(`machine: Node ${process.version}, ${availableParallelism()} CPUs; ${describePinning()}`)
  console.log(`stores: SQLite${postgresUrl === undefined ? "" : `, PostgreSQL at ${shownUrl(postgresUrl)} (the host migrates it and writes rows)`}`)
  if (databaseUrl !== "" && postgresUrl === undefined) console.log("DATABASE_URL is not postgres:// and is ignored: SQLite only")
  console.log("")

  const bare = await benchPlain("bare node:http", "bare-server.mjs")
  const floor = await benchPlain("@effect/platform hello", "platform-hello.mjs")
  const signed = await benchStore("SQLite", storeEnv(join(workDir, "sqlite"), "", ""))
  if (postgresUrl !== undefined) signed.push(...(await benchStore("PostgreSQL", storeEnv(join(workDir, "postgres"), postgresUrl, BENCH_MASTER_KEY))))
  printTable([["bare node:http", bare], ["@effect/platform hello", floor], ...signed], bare)
  console.log(`\n@effect/platform hello / bare node:http: ${((floor.rps / bare.rps) * 100).toFixed(1)} % (the framework's own ceiling)`)
  // autocannon's own ceiling (one Node core) is far above what initiate-payment answers, so it does not cap that row.
  console.log(`bare node:http was loaded by ${loader}, initiate-payment by autocannon: each ratio below is against that one baseline.\n`)

  for (const [name, r] of signed) {
    const percent = (r.rps / bare.rps) * 100
    console.log(`${name} / bare node:http: ${fixed(percent, 1)} % (target >= ${r.target} %): ${percent >= r.target ? "PASS" : "BELOW TARGET"}`)
  }
  for (const [name, r] of signed) {
    if (r.non2xx > 0 || r.errors > 0) {
      console.log(`\n!!!!! WARNING: ${name} had ${r.non2xx} non-2xx responses and ${r.errors} socket errors/timeouts.`)
      console.log("!!!!! Its req/s counts failures too, so its numbers above are NOT a valid measurement.")
    }
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
