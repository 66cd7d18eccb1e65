// `node scripts/bench/dashboard-scale.mjs [--store sqlite|postgres] [--payments N] [--requests R] [--skip-build]`
// (postgres: DATABASE_URL or TEST_DATABASE_URL, a postgres:// URL whose user may create databases).
// The dashboard with a big store: the built standalone host is started on a fresh store (it migrates
// it), a merchant with an owner user, a USD sandbox wallet and three other merchants are made through
// the admin API, the host is stopped, N payments of a year (default a million) with their refunds and
// the wallet's ledger are bulk-seeded straight into the tables (dashboard-seed.mjs), and the host is
// started again on the full store. Signed in as the owner, every page a merchant reads is fetched R
// times one after another and then R times four at a time, printing p50/p99 and the host's CPU per
// request; then the whole statement is downloaded as CSV, printing rows/s and the host's peak RSS.
// Numbers only, never an exit code: the targets (p99 < 100 ms per page, >= 50k CSV rows/s in
// constant memory) are for the reader. `dashboardScale(options)` returns the rows for another bench.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import Database from "better-sqlite3"
import { freePort, logTail, onPostgres, peakRssMiB, processCpuMs, rssMiB, startNode, stop, throwAwayDatabase, waitForOk } from "./processes.mjs"
import { expectOk } from "./routes.mjs"
import { seedStatements } from "./dashboard-seed.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const HOST_MAIN = join(ROOT, "dist", "hosts", "standalone", "main.js")
const MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const PASSWORD = "a long enough bench passphrase"
const OTHER_MERCHANTS = 3

const percentile = (sorted, p) => sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]


/** One browser's cookies, sent back on every request; redirects are not followed. */
const browser = (base) => {
  const jar = new Map()
  const resets = { count: 0 }
  const remember = (response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair.indexOf("=")
      const value = pair.slice(at + 1)
      if (value === "" || /Max-Age=0/i.test(line)) jar.delete(pair.slice(0, at))
      else jar.set(pair.slice(0, at), value)
    }
    return response
  }
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  // A keep-alive socket the host closed just as a request went out resets (seen when a busy host's
  // event loop stalls past its keep-alive timeout): sent again once on a fresh socket, and counted.
  const send = async (url, init) => {
    try {
      return await fetch(url, init)
    } catch (error) {
      if (error?.cause?.code !== "ECONNRESET") throw error
      resets.count++
      return fetch(url, init)
    }
  }
  return {
    resets,
    get: async (path) => remember(await send(base + path, { headers: { cookie: cookie() }, redirect: "manual" })),
    post: async (path, fields) =>
      remember(await send(base + path, {
        method: "POST",
        headers: { cookie: cookie(), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual"
      }))
  }
}

const formToken = (html) => {
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1]
  if (token === undefined) throw new Error("the page has no form token")
  return token
}

/** A payments-list cursor (the keyset form of core/shared/keyset-page.ts): the page after this payment. */
const paymentCursor = (createdAt, trxId) => Buffer.from(`${createdAt}.${trxId}`).toString("base64url")


/** The pages timed: [name, path]; paths are under /dashboard. */
const pagesOf = ({ walletId, now, payments, trxOf, createdOf }) => {
  const day = (micros) => new Date(Number(micros / 1000n)).toISOString().slice(0, 10)
  const middle = Math.floor(payments / 2)
  const monthAgo = now - 30n * 86_400_000_000n
  return [
    ["overview", ""],
    ["payments", "/payments"],
    ["payments deep cursor", `/payments?cursor=${paymentCursor(createdOf(middle), trxOf(middle))}`],
    ["payments status=success", "/payments?status=success"],
    ["payments status=failed", "/payments?status=failed"],
    ["payments status=pending", "/payments?status=pending"],
    ["payments a month by date", `/payments?from=${day(monthAgo - 60n * 86_400_000_000n)}&to=${day(monthAgo - 30n * 86_400_000_000n)}`],
    ["payments failed in a month", `/payments?status=failed&from=${day(monthAgo - 60n * 86_400_000_000n)}&to=${day(monthAgo - 30n * 86_400_000_000n)}`],
    ["payments by reference", `/payments?reference=order-${String(middle + 1).padStart(8, "0")}`],
    ["payments by amount", "/payments?amount=123.45&currency=USD"],
    ["payment detail", `/payments/${trxOf(middle + 1)}`],
    ["balances", "/balances"],
    ["statement", `/statements?wallet=${walletId}`],
    ["subscriptions", "/subscriptions"],
    ["webhooks", "/webhooks"],
    ["request logs", "/logs"],
    ["disputes", "/disputes"],
    ["payouts", "/payouts"],
    ["payout destinations", "/payout-destinations"],
    ["developers", "/developers"],
    ["api config", "/api-config"],
    ["audit", "/audit"],
    ["team", "/team"],
    ["test clocks", "/test-clocks"],
    ["billing settings", "/billing-settings"],
    ["sandbox mail", "/sandbox-mail"]
  ]
}

/** `count` sequential GETs of `path`, then `count` more `concurrency` at a time: latencies and the host's CPU per request. */
const timePage = async (visitor, pid, path, count, concurrency) => {
  const once = async () => {
    const started = performance.now()
    const response = await visitor.get(path)
    await response.arrayBuffer()
    if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`)
    return performance.now() - started
  }
  await once() // warm: the first read of a page pays for its module's first run
  const cpuBefore = processCpuMs(pid)
  const sequential = []
  for (let n = 0; n < count; n++) sequential.push(await once())
  const cpuPerRequest = (processCpuMs(pid) - cpuBefore) / count
  const concurrent = []
  let left = count
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (left-- > 0) concurrent.push(await once())
  }))
  const sorted = (values) => [...values].sort((a, b) => a - b)
  const s = sorted(sequential)
  const c = sorted(concurrent)
  return { p50: percentile(s, 50), p99: percentile(s, 99), p50x4: percentile(c, 50), p99x4: percentile(c, 99), cpuMs: cpuPerRequest }
}

/** The whole statement as CSV, read as it streams: rows, rows/s, and the host's RSS before and at its peak. */
const timeCsv = async (visitor, server, walletId) => {
  const before = rssMiB(server)
  const started = performance.now()
  const response = await visitor.get(`/statements/${walletId}.csv`)
  if (response.status !== 200) throw new Error(`the statement CSV answered ${response.status}`)
  let rows = -1 // the header
  let bytes = 0
  let peak = before ?? 0
  let sampled = performance.now()
  for await (const chunk of response.body) {
    bytes += chunk.length
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) rows++
    if (performance.now() - sampled > 100) {
      peak = Math.max(peak, rssMiB(server) ?? 0)
      sampled = performance.now()
    }
  }
  const seconds = (performance.now() - started) / 1000
  return { rows, seconds, rowsPerSecond: rows / seconds, mib: bytes / 1048576, rssBeforeMiB: before, rssPeakDuringMiB: peak, hostPeakMiB: peakRssMiB(server) }
}

// Extra node flags for the host, e.g. BENCH_HOST_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
// (NODE_OPTIONS refuses --cpu-prof).
const HOST_NODE_ARGS = (process.env["BENCH_HOST_NODE_ARGS"] ?? "").split(" ").filter((arg) => arg !== "")

/**
 * The bench: `{ store: "sqlite"|"postgres", payments, requests, concurrency, databaseUrl, log }`.
 * Returns `{ store, payments, seedSeconds, pages: [{ page, p50, p99, p50x4, p99x4, cpuMs }], csv }`.
 */
export const dashboardScale = async ({ store = "sqlite", payments = 1_000_000, requests = 60, concurrency = 4, databaseUrl = "", log = console.log } = {}) => {
  const workDir = mkdtempSync(join(tmpdir(), "mp-dashboard-scale-"))
  const adminToken = `adm_${randomBytes(24).toString("hex")}`
  let storeUrl = ""
  let database
  if (store === "postgres") {
    if (!/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error("--store postgres needs DATABASE_URL (or TEST_DATABASE_URL), a postgres:// URL")
    database = await throwAwayDatabase(databaseUrl, "mp_dashboard_scale")
    storeUrl = database.url
  }
  const env = {
    ...process.env, DATA_DIR: join(workDir, "data"), DATABASE_URL: storeUrl, MASTER_KEY: store === "postgres" ? MASTER_KEY : "",
    ADMIN_TOKEN: adminToken, DEMO: "false", RATE_LIMIT_PER_MINUTE: "1000000", BASE_URL: "", SIGNATURE_TOLERANCE_SECONDS: "",
    CRYPTO_CURRENCIES: "", CLOCK: "", NODE_ENV: "production"
  }
  let server
  let failed = false
  const start = async () => {
    const port = await freePort()
    server = startNode("standalone host", [...HOST_NODE_ARGS, HOST_MAIN], { ...env, PORT: String(port), HOST: "127.0.0.1" }, join(workDir, "host.log"), [])
    const base = `http://127.0.0.1:${port}`
    await waitForOk(server, `${base}/healthz`, 120_000)
    return base
  }
  try {
    // 1. A migrated store with the merchants, the wallet and a user who has set a password.
    let base = await start()
    const admin = (method, path, body) =>
      fetch(`${base}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      }).then((response) => expectOk(`admin ${method} ${path}`, response))
    const merchant = async (name) => {
      const made = await admin("POST", "/merchants", { name, status: "approved" })
      await admin("PUT", `/merchants/${made.id}/currencies`, { currency_codes: ["USD"] })
      const wallet = await admin("POST", `/merchants/${made.id}/wallets`, { currency_code: "USD", environment: "sandbox" })
      return { id: made.id, walletId: (wallet.data ?? wallet).id }
    }
    const main = await merchant("Scale shop")
    const others = []
    for (let n = 1; n <= OTHER_MERCHANTS; n++) others.push(await merchant(`Neighbour shop ${n}`))
    const email = "owner@scale-shop.example"
    const link = await admin("POST", `/merchants/${main.id}/users`, { email, role: "owner" })
    const linkPath = new URL((link.data ?? link).set_password_url).pathname
    const visitor = browser(`${base}`)
    const linkPage = await visitor.get(linkPath)
    const set = await visitor.post(linkPath, { csrf_token: formToken(await linkPage.text()), password: PASSWORD })
    if (set.status !== 303) throw new Error(`setting the password answered ${set.status}`)
    await stop(server, 15_000)

    // 2. The bulk seed, the host stopped: its statements generate the rows in the store itself.
    const now = BigInt(Date.now()) * 1000n
    const statements = [
      ...seedStatements({ dialect: store, merchantId: main.id, walletId: main.walletId, count: payments, firstId: 1, now }),
      ...others.flatMap((other, n) =>
        seedStatements({ dialect: store, merchantId: other.id, walletId: other.walletId, count: Math.ceil(payments / 10), firstId: 100_000_000 * (n + 1), now }))
    ]
    const seedStarted = performance.now()
    if (store === "postgres") {
      await onPostgres(storeUrl, async (client) => {
        for (const statement of statements) await client.query(statement)
        await client.query("VACUUM ANALYZE")
      })
    } else {
      const db = new Database(join(workDir, "data", "merchant-payments.db"))
      db.pragma("synchronous = OFF")
      db.transaction(() => statements.forEach((statement) => db.exec(statement)))()
      db.exec("ANALYZE")
      db.pragma("wal_checkpoint(TRUNCATE)")
      db.close()
    }
    const seedSeconds = (performance.now() - seedStarted) / 1000
    log(`dashboard-scale (${store}): ${payments} payments (+${OTHER_MERCHANTS} x ${Math.ceil(payments / 10)} of other merchants) seeded in ${seedSeconds.toFixed(1)} s`)

    // 3. The host on the full store, signed in as the owner.
    base = await start()
    const owner = browser(`${base}/dashboard`)
    const form = await owner.get("/login")
    const signedIn = await owner.post("/login", { csrf_token: formToken(await form.text()), email, password: PASSWORD })
    if (signedIn.status !== 303) throw new Error(`signing in answered ${signedIn.status}`)
    const step = (365n * 86_400_000_000n) / BigInt(payments)
    const pages = pagesOf({
      walletId: main.walletId,
      now,
      payments,
      trxOf: (i) => `SANDBOX_${String(i + 1).padStart(26, "0")}`,
      createdOf: (i) => now - 365n * 86_400_000_000n + BigInt(i) * step
    })
    const rows = []
    log(`  ${"page".padEnd(28)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"p50 x4".padStart(8)} ${"p99 x4".padStart(8)} ${"cpu ms/req".padStart(10)}`)
    for (const [page, path] of pages) {
      const timed = await timePage(owner, server.child.pid, path, requests, concurrency)
      rows.push({ page, ...timed })
      const f = (value) => value.toFixed(1).padStart(8)
      log(`  ${page.padEnd(28)} ${f(timed.p50)} ${f(timed.p99)} ${f(timed.p50x4)} ${f(timed.p99x4)} ${timed.cpuMs.toFixed(1).padStart(10)}${timed.p99 >= 100 ? "  (p99 >= 100 ms)" : ""}`)
    }
    const csv = await timeCsv(owner, server, main.walletId)
    log(`  statement CSV: ${csv.rows} rows (${csv.mib.toFixed(0)} MiB) in ${csv.seconds.toFixed(1)} s = ${Math.round(csv.rowsPerSecond)} rows/s; ` +
      `host RSS ${csv.rssBeforeMiB?.toFixed(0)} MiB before, ${csv.rssPeakDuringMiB.toFixed(0)} MiB at most while streaming, peak ever ${csv.hostPeakMiB?.toFixed(0)} MiB`)
    if (owner.resets.count > 0) log(`  (${owner.resets.count} request(s) sent again after a reset keep-alive socket)`)
    const result = { store, payments, seedSeconds, pages: rows, csv }
    log(`BENCH_JSON ${JSON.stringify(result)}`)
    return result
  } catch (error) {
    if (server !== undefined) log(`--- host log (${server.exitCode === null ? "running" : `exited: ${server.exitCode}`}) ---\n${logTail(server, 60)}`)
    failed = true
    throw error
  } finally {
    if (server !== undefined) await stop(server, 15_000)
    await database?.drop()
    // A failed run keeps its host log (the store too, on SQLite) to read why.
    if (failed) log(`kept ${workDir}`)
    else rmSync(workDir, { recursive: true, force: true })
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values: flags } = parseArgs({
    options: {
      store: { type: "string", default: "sqlite" },
      payments: { type: "string", default: "1000000" },
      requests: { type: "string", default: "60" },
      "skip-build": { type: "boolean", default: false }
    }
  })
  if (!flags["skip-build"]) {
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
    if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`)
  }
  await dashboardScale({
    store: flags.store,
    payments: Number(flags.payments),
    requests: Number(flags.requests),
    databaseUrl: process.env["DATABASE_URL"] || process.env["TEST_DATABASE_URL"] || ""
  })
}
