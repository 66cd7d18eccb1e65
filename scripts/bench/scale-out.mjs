// `npm run bench:scale-out` (DATABASE_URL=postgres://... of a throw-away database) measures how the
// kit scales past one process: the same signed loads against one standalone host, then against two
// hosts sharing the database, in one run. Nothing is pinned (two hosts need both cores, and the load
// generator shares them too), so read the two rows against each other, never against `npm run bench`.
// Then the subscription scheduler the same way: subscriptions seeded due, every host asking for ticks
// (POST /admin/v1/scheduler/run) until none is left, the subscriptions moved per second, each host's
// CPU per subscription, and the count of subscriptions renewed twice (the lease must keep it at 0).
// `--due N` subscriptions per setup (default 3000), `--batch N` per tick (default 100). Numbers only.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runLoad } from "./load.mjs"
import { freePort, killNow, logTail, onPostgres, peakRssMiB, processCpuMs, startNode, stop, waitForOk } from "./processes.mjs"
import { createKitMerchant, expectOk, prepareRoute } from "./routes.mjs"
import { seedSubscriptions } from "./subscription-seed.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const HOST_MAIN = join(ROOT, "dist", "hosts", "standalone", "main.js")
const CONNECTIONS = 50
const MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`
const UNPINNED = []

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    due: { type: "string", default: "3000" },
    batch: { type: "string", default: "100" },
    "skip-build": { type: "boolean", default: false }
  }
})
const durationSeconds = Number(flags.duration)
const dueCount = Number(flags.due)
// A tick is one lease: the work one host does per turn. Far fewer than due, so the hosts take turns.
const SCHEDULER_BATCH = Number(flags.batch)
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
    ADMIN_TOKEN, DEMO: "true", RATE_LIMIT_PER_MINUTE: "1000000", BASE_URL: "", CLOCK: "", LOG_LEVEL: "warn",
    // Ticks only when the bench asks (the scheduler rows), each of SCHEDULER_BATCH subscriptions.
    SCHEDULER: "off", SCHEDULER_BATCH_SIZE: String(SCHEDULER_BATCH)
  }
  const server = startNode(`host ${servers.length + 1}`, [HOST_MAIN, "serve"], env, join(workDir, `${servers.length}.log`), UNPINNED)
  servers.push(server)
  const base = `http://127.0.0.1:${port}`
  // A busy machine may take well over a minute to start a host.
  await waitForOk(server, `${base}/healthz`, 300_000)
  return { server, base }
}

/** The load split evenly over `hosts`, each share from its own autocannon process, all at once. */
const loadAcross = async (hosts, route, credentials) => {
  const loads = await Promise.all(hosts.map((host) => prepareRoute(route, host.base, credentials)))
  const pgBefore = await pgCounters()
  const results = await Promise.all(hosts.map((host, i) =>
    runLoad({ base: host.base, connections: CONNECTIONS / hosts.length, warmupSeconds, durationSeconds, ...loads[i] }, undefined, UNPINNED)))
  const rps = results.reduce((sum, r) => sum + r.rps, 0)
  const failures = results.reduce((sum, r) => sum + r.non2xx + r.errors, 0)
  const p99 = Math.max(...results.map((r) => r.p99Ms ?? 0))
  // The measured window only roughly: the warm-up's work is in these counters too.
  const pg = pgSpent(pgBefore, await pgCounters())
  const window = warmupSeconds + durationSeconds
  return { rps, p99, failures, pgCpuShare: pg.pgCpuSeconds / window, walSyncsPerSecond: pg.walSyncs / window }
}

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
const cpuSecondsOf = (pid) => processCpuMs(pid) / 1000
const cpuSeconds = (server) => cpuSecondsOf(server.child.pid)

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const withDatabase = (run) => onPostgres(databaseUrl, run)

/**
 * What PostgreSQL spent while a row ran: CPU of the backends serving this database (pids from
 * pg_stat_activity; the hosts' pooled connections stay open across a row) and WAL fsyncs (pg_stat_wal:
 * the whole server's, other databases on it included).
 */
const pgCounters = () =>
  withDatabase(async (client) => {
    const backends = await client.query("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
    const wal = await client.query("SELECT wal_sync::bigint AS syncs, wal_bytes::bigint AS bytes FROM pg_stat_wal")
    const cpu = new Map()
    for (const { pid } of backends.rows) {
      try {
        cpu.set(pid, cpuSecondsOf(pid))
      } catch {
        // gone since the list was read
      }
    }
    return { cpu, syncs: Number(wal.rows[0].syncs), bytes: Number(wal.rows[0].bytes) }
  })

const pgSpent = (before, after) => ({
  pgCpuSeconds: [...after.cpu].reduce((sum, [pid, seconds]) => sum + seconds - (before.cpu.get(pid) ?? 0), 0),
  walSyncs: after.syncs - before.syncs,
  walMiB: (after.bytes - before.bytes) / 1048576
})

/** The merchant of `credentials`, with a sandbox card gateway in USD (the invoices' checkouts offer it). */
const schedulerMerchant = async (base, credentials) => {
  const admin = (method, path, body) =>
    fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then((response) => expectOk(`admin ${method} ${path}`, response))
  await admin("POST", "/gateways", { plugin: "sandbox", name: "Card", currency_code: "USD", method: `card${randomBytes(3).toString("hex")}`, type: "automatic", active: true })
  return withDatabase(async (client) => {
    const merchant = await client.query("SELECT merchant_id FROM merchant_credentials WHERE merchant_key = $1", [credentials.merchant_key])
    const gateway = await client.query("SELECT MAX(id) AS id FROM gateways")
    return { merchantId: Number(merchant.rows[0].merchant_id), gatewayId: Number(gateway.rows[0].id) }
  })
}

/**
 * `dueCount` subscriptions due (among twice as many), then every host asks for ticks until each is
 * answered an empty one: a host refused while another holds the lease (409) asks again shortly. The
 * rate is the due subscriptions over the time until the last was moved.
 */
const schedulerAcross = async (hosts, merchant, tag) => {
  await withDatabase(async (client) => {
    await seedSubscriptions(client, { ...merchant, total: dueCount * 2, due: dueCount, nowMicros: BigInt(Date.now()) * 1000n, tag })
    await client.query("ANALYZE")
  })
  const cpuBefore = hosts.map((host) => cpuSeconds(host.server))
  const pgBefore = await pgCounters()
  const started = performance.now()
  const perHost = await Promise.all(hosts.map(async (host) => {
    let processed = 0
    let busy = 0
    for (;;) {
      const response = await fetch(`${host.base}/admin/v1/scheduler/run`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      const text = await response.text()
      if (response.status === 409) {
        busy++
        await sleep(20)
        continue
      }
      if (response.status !== 200) throw new Error(`scheduler run answered ${response.status}: ${text}`)
      const json = JSON.parse(text)
      const report = json.data ?? json
      if (report.processed === 0) return { processed, busy, ms: performance.now() - started }
      processed += report.processed
    }
  }))
  const seconds = Math.max(...perHost.map((host) => host.ms)) / 1000
  const cpu = hosts.map((host, i) => cpuSeconds(host.server) - cpuBefore[i])
  const pg = pgSpent(pgBefore, await pgCounters())
  const counts = await withDatabase(async (client) => {
    const mine = `SELECT id FROM subscriptions WHERE external_reference LIKE 'bench-' || $1::text || '%'`
    const [left, twice, invoices, events] = [
      await client.query(`SELECT COUNT(*)::int AS n FROM subscriptions WHERE id IN (${mine}) AND wake_at IS NOT NULL AND wake_at <= $2`, [tag, String(BigInt(Date.now()) * 1000n)]),
      await client.query(`SELECT COUNT(*)::int AS n FROM (SELECT subscription_id FROM subscription_invoices WHERE subscription_id IN (${mine})
        GROUP BY subscription_id HAVING COUNT(*) > 2) AS t`, [tag]),
      await client.query(`SELECT COUNT(*)::int AS n FROM subscription_invoices WHERE subscription_id IN (${mine}) AND sequence = 2`, [tag]),
      await client.query(`SELECT COUNT(*)::int AS n FROM webhook_deliveries WHERE object_id IN (${mine}) AND event = 'invoice.created'`, [tag])
    ]
    return { left: left.rows[0].n, twice: twice.rows[0].n, renewed: invoices.rows[0].n, invoiceEvents: events.rows[0].n }
  })
  const processed = perHost.reduce((sum, host) => sum + host.processed, 0)
  return {
    hosts: hosts.length,
    processed,
    perSecond: processed / seconds,
    cpuMsPerSubscription: (cpu.reduce((sum, c) => sum + c, 0) * 1000) / Math.max(1, processed),
    split: perHost.map((host) => host.processed).join(" / "),
    busy: perHost.reduce((sum, host) => sum + host.busy, 0),
    seconds,
    hostCpuShare: cpu.reduce((sum, c) => sum + c, 0) / seconds,
    pgCpuShare: pg.pgCpuSeconds / seconds,
    walSyncsPerSecond: pg.walSyncs / seconds,
    ...counts
  }
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
  const merchant = await schedulerMerchant(first.base, credentials)
  const rows = []
  for (const route of ["site-info", "initiate-payment"]) {
    const one = await loadAcross([first], route, credentials)
    rows.push({ route, hosts: 1, ...one })
  }
  const scheduled = [await schedulerAcross([first], merchant, "one")]
  const second = await startHost()
  for (const route of ["site-info", "initiate-payment"]) {
    const two = await loadAcross([first, second], route, credentials)
    rows.push({ route, hosts: 2, ...two })
  }
  scheduled.push(await schedulerAcross([first, second], merchant, "two"))
  console.log("\n| route | hosts | req/s | worst host p99 ms | failures | peak RSS MiB per host | PostgreSQL CPU (cores) | WAL fsyncs/s |")
  console.log("|---|---|---|---|---|---|---|---|")
  const rss = servers.map((s) => peakRssMiB(s)?.toFixed(0)).join(" / ")
  for (const row of rows) console.log(`| ${row.route} | ${row.hosts} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(1)} | ${row.failures} | ${row.hosts === 2 ? rss : ""} | ${row.pgCpuShare.toFixed(2)} | ${row.walSyncsPerSecond.toFixed(0)} |`)
  for (const route of ["site-info", "initiate-payment"]) {
    const [one, two] = [1, 2].map((n) => rows.find((row) => row.route === route && row.hosts === n))
    console.log(`${route}: two hosts / one host = ${(two.rps / one.rps).toFixed(2)}x`)
  }
  console.log(`\nscheduler: ${dueCount} subscriptions due per setup, ticks of ${SCHEDULER_BATCH} under the one lease, every host asking`)
  console.log("| hosts | due moved per s | host CPU ms per subscription | hosts' CPU (cores) | PostgreSQL CPU (cores) | WAL fsyncs/s | moved by each host | refused while leased | left due | renewed | renewed twice | invoice.created events |")
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|")
  for (const row of scheduled) {
    console.log(`| ${row.hosts} | ${row.perSecond.toFixed(0)} | ${row.cpuMsPerSubscription.toFixed(2)} | ${row.hostCpuShare.toFixed(2)} | ${row.pgCpuShare.toFixed(2)} | ` +
      `${row.walSyncsPerSecond.toFixed(0)} | ${row.split} | ${row.busy} | ${row.left} | ${row.renewed} | ${row.twice} | ${row.invoiceEvents} |`)
  }
  console.log(`scheduler: two hosts / one host = ${(scheduled[1].perSecond / scheduled[0].perSecond).toFixed(2)}x`)
  console.log(`BENCH_JSON ${JSON.stringify({ routes: rows, scheduler: scheduled })}`)
}

try {
  await main()
} catch (error) {
  // fetch's own message ("fetch failed") names no cause: its cause does (a refused connection, a reset).
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : ""
  console.error(`\nscale-out failed: ${error instanceof Error ? error.message : String(error)}${cause}`)
  if (error instanceof Error && error.stack !== undefined) console.error(error.stack.split("\n").slice(1, 4).join("\n"))
  for (const server of servers) console.error(logTail(server, 15))
  process.exitCode = 1
} finally {
  await Promise.all(servers.map((server) => stop(server)))
}
