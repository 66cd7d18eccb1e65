// `npm run bench:webhooks [-- --store sqlite|postgres --hosts 1|2 --duration N --runs N --cpu-prof DIR]`
// measures webhook delivery from the built standalone host to a fast local receiver
// (webhook-receiver.mjs, its own process), with loopback targets allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS).
//
// Twenty merchants, each with one webhook endpoint on a port of its own: a target is a URL's origin
// (scheme, host, port), and the dispatcher caps attempts in flight per target, so one port for all
// would make this a one-receiver test bounded by that cap, not by the host.
//
// Set-up goes through the API: merchants by ADMIN_TOKEN, endpoints and one sandbox trigger each
// (POST /api/v1/triggers payment.completed), whose real outbox row is the template of the load. The
// load itself is written to the outbox directly, copies of those rows with fresh ids: enqueueing
// through HTTP costs the host more than delivering does, and would measure the request path, not
// the dispatcher. Two phases, one after the other, on the same hosts:
//   drain:  a backlog of (1,500 x duration) deliveries over the merchants, measured while the host
//           empties it: deliveries/s and host CPU per delivery.
//   steady: one busy merchant starts with a backlog of ten times what each other merchant gets in
//           the phase, then every merchant's events are written at a fixed total rate (--rate,
//           default 800/s); enqueue (created_at) to first arrival, p50 and p99, for the busy merchant
//           and for the rest: a fair dispatcher keeps the rest's p99 low while the busy one waits.
// With --hosts 2 (PostgreSQL only) two hosts share the database and the figures are both together.
// Numbers only; `runWebhookThroughput(options)` returns the rows for the main bench.
import { fork, spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { loadPrefix, pinned, serverPrefix } from "./pinning.mjs"
import { freePort, killNow, logTail, peakRssMiB, processCpuMs, startNode, stop, throwAwayDatabase, waitForOk } from "./processes.mjs"
import { createKitMerchant, expectOk } from "./routes.mjs"
import { signedHeaders } from "./signing.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))
const ROOT = resolve(HERE, "..", "..")
const HOST_MAIN = join(ROOT, "dist", "hosts", "standalone", "main.js")
const MASTER_KEY = "6d702d62656e63682d6d61737465722d6b65792d6e6f742d7365637265742121"
const sleep = (ms) => new Promise((done) => setTimeout(done, ms))


const percentile = (sorted, p) => (sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))])
const median = (values) => {
  const sorted = values.filter((v) => !Number.isNaN(v)).sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)]
}

/** The outbox, seen from the bench: the store's own client, writing rows shaped as the host's. */
const openStore = async (store, url, sqliteFile) => {
  if (store === "postgres") {
    const pg = (await import("pg")).default
    const pool = new pg.Pool({ connectionString: url, max: 2 })
    return {
      query: async (text, params = []) => {
        let n = 0
        const numbered = text.replace(/\?/g, () => `$${++n}`)
        return (await pool.query(numbered, params.map((value) => (typeof value === "bigint" ? String(value) : value)))).rows
      },
      batch: async (statements) => { for (const [text, params] of statements) await pool.query(text.replace(/\?/g, (() => { let n = 0; return () => `$${++n}` })()), params.map((v) => (typeof v === "bigint" ? String(v) : v))) },
      close: () => pool.end()
    }
  }
  const Database = (await import("better-sqlite3")).default
  const db = new Database(sqliteFile)
  db.pragma("busy_timeout = 5000")
  // The bench's own writes need no durability, and each commit of its holds the host's writer out.
  db.pragma("synchronous = OFF")
  db.defaultSafeIntegers(true)
  const run = (text, params) => {
    const statement = db.prepare(text)
    return statement.reader ? statement.all(...params) : (statement.run(...params), [])
  }
  return {
    query: async (text, params = []) => run(text, params),
    /** Several statements in one transaction: one hold of the write lock. */
    batch: async (statements) => db.transaction(() => { for (const [text, params] of statements) run(text, params) })(),
    close: async () => db.close()
  }
}

/** Writes copies of `template` rows (one per merchant) as new pending deliveries due now; returns their ids and created_at (ms). */
const writeDeliveries = async (db, templates, merchantIndexes) => {
  const written = []
  const statements = []
  const CHUNK = 500
  for (let start = 0; start < merchantIndexes.length; start += CHUNK) {
    const chunk = merchantIndexes.slice(start, start + CHUNK)
    const nowUs = BigInt(Date.now()) * 1000n
    const columns = Object.keys(templates[0])
    const values = []
    for (const index of chunk) {
      const template = templates[index]
      const id = `evt_${randomBytes(16).toString("hex")}`
      const row = { ...template, id, status: "pending", attempts: 0, next_attempt_at: nowUs, created_at: nowUs, updated_at: nowUs,
        lease_owner: null, lease_until: null, last_error: null, last_status_code: null }
      if ("lease_lane" in row) row.lease_lane = null
      values.push(...columns.map((column) => row[column]))
      written.push({ id, merchant: index, createdMs: Number(nowUs / 1000n) })
    }
    const placeholders = chunk.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ")
    statements.push([`INSERT INTO webhook_deliveries (${columns.join(", ")}) VALUES ${placeholders}`, values])
  }
  await db.batch(statements)
  return written
}

/**
 * @param {{ store?: "sqlite"|"postgres", hosts?: number, durationSeconds?: number, merchants?: number, rate?: number,
 *   databaseUrl?: string, skipBuild?: boolean, drainOnly?: boolean, cpuProfDir?: string, env?: Record<string,string>, progress?: (line: string) => void }} options
 * @returns {Promise<Array<Record<string, unknown>>>} one row per phase
 */
export const runWebhookThroughput = async (options = {}) => {
  const store = options.store ?? "sqlite"
  const hostCount = options.hosts ?? 1
  const durationSeconds = options.durationSeconds ?? 10
  const merchantCount = options.merchants ?? 20
  const rate = options.rate ?? 800
  const progress = options.progress ?? ((line) => console.error(line))
  const serverUrl = options.databaseUrl ?? process.env["DATABASE_URL"] ?? ""
  if (store === "postgres" && !/^postgres(ql)?:\/\//.test(serverUrl)) throw new Error("--store postgres needs DATABASE_URL=postgres://... (a server where a database may be created)")
  if (store === "sqlite" && hostCount !== 1) throw new Error("--hosts 2 needs --store postgres (hosts share one database)")
  if (!options.skipBuild) {
    const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
    if (build.status !== 0) throw new Error("npm run build failed")
  }
  const workDir = mkdtempSync(join(tmpdir(), "merchant-payments-webhooks-"))
  const adminToken = `adm_${randomBytes(24).toString("hex")}`
  /** @type {import("./processes.mjs").Server[]} */
  const servers = []
  const receiver = fork(join(HERE, "webhook-receiver.mjs"), [String(merchantCount)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    ...(pinned && hostCount === 1 ? { execPath: loadPrefix[0], execArgv: [...loadPrefix.slice(1), process.execPath] } : {})
  })
  const receiverPorts = await new Promise((done, fail) => {
    receiver.once("message", (message) => done(message.listening))
    receiver.once("exit", (code) => fail(new Error(`receiver exited with ${code}`)))
  })
  const take = () => new Promise((done) => {
    receiver.once("message", done)
    receiver.send({ take: true })
  })
  let db
  // Each run on a database of its own: one left by an earlier run holds its stopped host's leases,
  // which keep their targets' places until they lapse, and its rows.
  const database = store === "postgres" ? await throwAwayDatabase(serverUrl, "mp_webhook_bench") : undefined
  const databaseUrl = database?.url ?? ""
  try {
    const sqliteFile = join(workDir, "0", "merchant-payments.db")
    const startHost = async () => {
      const port = await freePort()
      const dataDir = join(workDir, String(servers.length))
      mkdirSync(dataDir, { recursive: true })
      const env = {
        ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, MASTER_KEY, ADMIN_TOKEN: adminToken,
        DATABASE_URL: store === "postgres" ? databaseUrl : "",
        RATE_LIMIT_PER_MINUTE: "1000000", BASE_URL: "", CLOCK: "", LOG_LEVEL: "warn",
        // The receiver listens on loopback: the operator's switch for development and tests.
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        ...options.env
      }
      const profile = options.cpuProfDir === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", resolve(options.cpuProfDir)]
      const prefix = pinned && hostCount === 1 ? serverPrefix : []
      const server = startNode(`host ${servers.length + 1}`, [...profile, HOST_MAIN, "serve"], env, join(workDir, `${servers.length}.log`), prefix)
      servers.push(server)
      const base = `http://127.0.0.1:${port}`
      await waitForOk(server, `${base}/healthz`)
      return { server, base }
    }
    const first = await startHost()
    for (let i = 1; i < hostCount; i++) await startHost()

    // Merchants, endpoints and one real event each, through the API.
    const signed = (credentials, method, path, body) =>
      fetch(first.base + path, { method, headers: signedHeaders(credentials, method, path, body), body })
    const merchants = []
    for (let i = 0; i < merchantCount; i++) {
      const credentials = await createKitMerchant(first.base, adminToken)
      const url = `http://127.0.0.1:${receiverPorts[i]}/merchant-${i}/webhooks`
      await expectOk("create webhook endpoint", await signed(credentials, "POST", "/api/v1/webhook-endpoints", JSON.stringify({ url, events: ["*"] })))
      const triggered = await expectOk("trigger payment.completed", await signed(credentials, "POST", "/api/v1/triggers", JSON.stringify({ event: "payment.completed" })))
      merchants.push({ credentials, eventIds: triggered.data.events.map((event) => event.id) })
    }
    // The triggered events must arrive: the path works before any load is written.
    const setupDeadline = Date.now() + 30_000
    let arrived = 0
    while (arrived < merchantCount && Date.now() < setupDeadline) {
      await sleep(200)
      arrived += (await take()).ids.length
    }
    if (arrived < merchantCount) throw new Error(`only ${arrived} of the ${merchantCount} triggered events arrived\n${logTail(first.server)}`)

    progress(`${merchantCount} merchants set up, their triggered events arrived`)
    db = await openStore(store, databaseUrl, sqliteFile)
    const templates = []
    for (let i = 0; i < merchantCount; i++) {
      const [row] = await db.query("SELECT * FROM webhook_deliveries WHERE id = ? AND url LIKE ?", [merchants[i].eventIds.at(-1), `%/merchant-${i}/%`])
      const any = row ?? (await db.query("SELECT * FROM webhook_deliveries WHERE url LIKE ? LIMIT 1", [`%/merchant-${i}/%`]))[0]
      if (any === undefined) throw new Error(`no outbox row for merchant ${i}`)
      templates.push(any)
    }
    const pids = servers.map((s) => s.child.pid)
    const cpuNow = () => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0)
    const rows = []

    // Phase 1: drain a backlog.
    const backlog = 1_500 * durationSeconds
    const drainIndexes = Array.from({ length: backlog }, (_, n) => n % merchantCount)
    // The window starts once the backlog is committed: until then the host cannot see it.
    const drained = await writeDeliveries(db, templates, drainIndexes)
    const cpuBefore = cpuNow()
    const drainStart = Date.now()
    let drainArrivals = 0
    let lastArrival = drainStart
    const drainDeadline = drainStart + durationSeconds * 1000
    while (drainArrivals < drained.length && Date.now() < drainDeadline) {
      await sleep(250)
      const got = await take()
      drainArrivals += got.ids.length
      if (got.times.length > 0) lastArrival = Math.max(lastArrival, got.times.at(-1))
    }
    const drainSeconds = (Math.min(Date.now(), drainArrivals >= drained.length ? lastArrival : Date.now()) - drainStart) / 1000
    const drainCpu = cpuNow() - cpuBefore
    rows.push({ phase: "drain", store, hosts: hostCount, deliveries: drainArrivals, seconds: drainSeconds,
      perSecond: drainArrivals / drainSeconds, cpuUsPerDelivery: (drainCpu * 1000) / drainArrivals })
    // What the window left unsent is set aside (failed, never sent), so the steady phase starts from an empty queue.
    if (drainArrivals < drained.length) {
      await db.query("UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL WHERE status = 'pending' AND lease_owner IS NULL", [])
      await sleep(2_000)
      await take()
    }
    progress(`drain: ${drainArrivals} of ${drained.length} delivered in the window`)
    if (options.drainOnly === true) return rows

    // Phase 2: a busy merchant's backlog, then every merchant at a fixed total rate.
    const perMerchantRate = rate / (merchantCount - 1 + 10)
    const busyBacklog = Math.round(10 * perMerchantRate * durationSeconds)
    const created = new Map()
    const note = (list) => { for (const w of list) created.set(w.id, w) }
    const steadyCpuBefore = cpuNow()
    const steadyStart = Date.now()
    note(await writeDeliveries(db, templates, Array.from({ length: busyBacklog }, () => 0)))
    // On SQLite the bench's writes are a second process taking the host's one write lock, which a
    // real deployment never has (its events are queued by the host itself); a host that finds the
    // lock taken waits in SQLite's busy handler on its event loop. Written in fewer, larger
    // transactions there, so the row measures the dispatcher and not that contention.
    const TICK_MS = store === "sqlite" ? 200 : 20
    const steadyEnd = steadyStart + durationSeconds * 1000
    let owed = 0
    let lastTick = Date.now()
    let rotor = 0
    while (Date.now() < steadyEnd) {
      const nowMs = Date.now()
      owed += ((nowMs - lastTick) / 1000) * rate
      lastTick = nowMs
      const due = Math.floor(owed)
      owed -= due
      // Each merchant's share of the rate, the busy one's ten times the others'.
      const indexes = []
      for (let n = 0; n < due; n++) {
        const slot = rotor++ % (merchantCount - 1 + 10)
        indexes.push(slot < 10 ? 0 : slot - 9)
      }
      if (indexes.length > 0) note(await writeDeliveries(db, templates, indexes))
      await sleep(Math.max(0, TICK_MS - (Date.now() - nowMs)))
    }
    // Arrivals: wait for the rest's events (the busy merchant's backlog may take longer: bounded).
    const arrivals = new Map()
    const collect = async () => {
      const got = await take()
      for (let n = 0; n < got.ids.length; n++) arrivals.set(got.ids[n], got.times[n])
    }
    await collect()
    const steadyCpu = cpuNow() - steadyCpuBefore
    const steadyArrivalsInWindow = [...arrivals.values()].filter((t) => t <= steadyEnd).length
    const restIds = [...created.values()].filter((w) => w.merchant !== 0)
    for (let waited = 0; waited < 60_000 && restIds.some((w) => !arrivals.has(w.id)); waited += 250) {
      await sleep(250)
      await collect()
    }
    const latencies = (list) =>
      list.filter((w) => arrivals.has(w.id)).map((w) => arrivals.get(w.id) - w.createdMs).sort((a, b) => a - b)
    const rest = latencies(restIds)
    const busy = latencies([...created.values()].filter((w) => w.merchant === 0))
    rows.push({
      phase: "steady", store, hosts: hostCount, rate, deliveries: steadyArrivalsInWindow, seconds: durationSeconds,
      perSecond: steadyArrivalsInWindow / durationSeconds, cpuUsPerDelivery: (steadyCpu * 1000) / steadyArrivalsInWindow,
      restP50Ms: percentile(rest, 50), restP99Ms: percentile(rest, 99), restMissing: restIds.length - rest.length,
      busyP50Ms: percentile(busy, 50), busyP99Ms: percentile(busy, 99), busyBacklog,
      peakRssMiB: servers.map((s) => peakRssMiB(s)?.toFixed(0)).join("/")
    })
    return rows
  } finally {
    await db?.close()
    await Promise.all(servers.map((server) => stop(server, 10_000)))
    servers.forEach(killNow)
    receiver.disconnect()
    rmSync(workDir, { recursive: true, force: true })
    await database?.drop()
  }
}

const fmt = (value, digits = 0) => (typeof value === "number" && Number.isFinite(value) ? value.toFixed(digits) : "-")

export const printWebhookRows = (rows, log = (line) => console.log(line)) => {
  log("| store | hosts | phase | deliveries/s | host CPU us/delivery | rest p50 / p99 ms | busy merchant p50 / p99 ms |")
  log("|---|---|---|---|---|---|---|")
  for (const row of rows) {
    log(`| ${row.store} | ${row.hosts} | ${row.phase}${row.runs === undefined ? "" : ` (median of ${row.runs})`} | ${fmt(row.perSecond)} | ${fmt(row.cpuUsPerDelivery)} | ` +
      (row.phase === "steady" ? `${fmt(row.restP50Ms)} / ${fmt(row.restP99Ms)} | ${fmt(row.busyP50Ms)} / ${fmt(row.busyP99Ms)} |` : "- | - |"))
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)
if (isMain) {
  const { values: flags } = parseArgs({
    options: {
      store: { type: "string", default: "sqlite" },
      hosts: { type: "string", default: "1" },
      duration: { type: "string", default: "10" },
      runs: { type: "string", default: "1" },
      rate: { type: "string", default: "800" },
      merchants: { type: "string", default: "20" },
      "cpu-prof": { type: "string" },
      "skip-build": { type: "boolean", default: false },
      // The drain phase alone: deliveries/s and CPU per delivery, without the steady phase's wait.
      "drain-only": { type: "boolean", default: false }
    }
  })
  try {
    const runs = Number(flags.runs)
    const all = []
    for (let run = 0; run < runs; run++) {
      const rows = await runWebhookThroughput({
        store: /** @type {"sqlite"|"postgres"} */ (flags.store), hosts: Number(flags.hosts), durationSeconds: Number(flags.duration),
        rate: Number(flags.rate), merchants: Number(flags.merchants), skipBuild: flags["skip-build"] || run > 0, drainOnly: flags["drain-only"],
        ...(flags["cpu-prof"] === undefined ? {} : { cpuProfDir: flags["cpu-prof"] })
      })
      printWebhookRows(rows)
      all.push(...rows)
    }
    if (runs > 1) {
      const medians = ["drain", "steady"].map((phase) => {
        const of = all.filter((row) => row.phase === phase)
        const pick = (key) => median(of.map((row) => row[key]))
        return { ...of[0], runs, perSecond: pick("perSecond"), cpuUsPerDelivery: pick("cpuUsPerDelivery"), restP50Ms: pick("restP50Ms"),
          restP99Ms: pick("restP99Ms"), busyP50Ms: pick("busyP50Ms"), busyP99Ms: pick("busyP99Ms") }
      })
      console.log("\nMedians:")
      printWebhookRows(medians)
      const spread = (phase, key) => all.filter((row) => row.phase === phase).map((row) => fmt(row[key])).join(", ")
      console.log(`drain deliveries/s per run: ${spread("drain", "perSecond")}; steady rest p99 ms per run: ${spread("steady", "restP99Ms")}`)
    }
  } catch (error) {
    console.error(`\nwebhook throughput failed: ${error instanceof Error ? error.message : String(error)}`)
    process.exitCode = 1
  }
}
