// `node scripts/bench/scheduler-scale.mjs [--skip-build]` with DATABASE_URL (or TEST_DATABASE_URL) a
// postgres:// URL whose user may create databases. How the subscription scheduler's tick scales with
// the subscriptions table: on a throw-away database per size (migrated by the kit itself, dropped at
// the end), a merchant with USD, an active sandbox wallet and a sandbox gateway, then multi-row
// INSERTs of N subscriptions (each with its paid first invoice, its payment, its reference and the
// delivered webhook of that invoice, as a live table holds them: statistics then see them), of
// which 10,000 are due: active, the paid period ended, next_billing_at in the past. Ticks of 1,000
// then run through the kit's own `tick` until nothing is due; it prints the time per processed
// subscription at 10,000 and 200,000 rows, their ratio, and the plan of the due query. Numbers only,
// never an exit code: the targets (<= 2 ms per subscription, ratio <= 1.3) are for the reader.
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath, pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { seedSubscriptions } from "./subscription-seed.mjs"
import { onPostgres } from "./processes.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const { values: flags } = parseArgs({
  options: {
    "skip-build": { type: "boolean", default: false },
    // Smaller runs to alternate builds on a busy machine: `--due 600 --batch 200`.
    due: { type: "string", default: "10000" },
    sizes: { type: "string", default: "10000,200000" },
    batch: { type: "string", default: "1000" }
  }
})
const BATCH = Number(flags.batch)
const DUE = Number(flags.due)
const SIZES = flags.sizes.split(",").map(Number)

const baseUrl = process.env["DATABASE_URL"] || process.env["TEST_DATABASE_URL"] || ""
if (!/^postgres(ql)?:\/\//.test(baseUrl)) {
  console.error("scheduler-scale: set DATABASE_URL (or TEST_DATABASE_URL) to a postgres:// URL whose user may create databases")
  process.exit(1)
}
if (!flags["skip-build"]) {
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`)
}
const load = (path) => import(pathToFileURL(join(ROOT, "dist", path)).href)
const { Effect, Layer, Logger, LogLevel, ManagedRuntime } = await import("effect")
const { defaultWebhookConfig, kitLayer } = await load("hosts/kit-layer.js")
const { defaultCurrencyCatalog } = await load("core/money/currencies.js")
const { defaultSiteSettings } = await load("core/settings/site-settings.js")
const { createMerchant, replaceCurrencies } = await load("core/merchants/merchant-admin.js")
const { createWallet } = await load("core/wallets/wallet-admin.js")
const { createGateway } = await load("core/gateways/gateway-admin.js")
const { tick } = await load("core/subscriptions/scheduler.js")


// The scheduler's own query (listDue): what it waits on is wake_at (core/subscriptions/wake.ts).
const DUE_QUERY = `SELECT * FROM subscriptions WHERE wake_at IS NOT NULL AND wake_at <= $1 AND test_clock_id IS NULL
  AND status <> 'cancelled' ORDER BY wake_at, id LIMIT ${BATCH}`

/** One size on its own database: seed, plan, then ticks until nothing is due. */
const runSize = async (total) => {
  const name = `mp_sched_bench_${randomBytes(5).toString("hex")}`
  await onPostgres(baseUrl, (client) => client.query(`CREATE DATABASE ${name}`))
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  const kit = kitLayer({
    store: { kind: "postgres", url: url.toString() },
    masterKey: new Uint8Array(32).fill(7),
    adminToken: "bench-admin-token",
    settings: defaultSiteSettings,
    currencies: defaultCurrencyCatalog,
    baseUrl: "https://pay.example",
    checkoutLifetimeSeconds: 3600,
    webhooks: defaultWebhookConfig,
    backgroundJobs: false,
    scheduler: { enabled: false, batchSize: BATCH }
  })
  // As the standalone host runs: no spans, warnings and errors only.
  const runtime = ManagedRuntime.make(kit.pipe(Layer.provide(Layer.setTracerEnabled(false)), Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))))
  try {
    const { gatewayId, merchantId } = await runtime.runPromise(Effect.gen(function*() {
      const merchant = yield* createMerchant({ name: "Bench shop", status: "approved" })
      yield* replaceCurrencies(merchant.id, ["USD"])
      yield* createWallet(merchant.id, "USD", "sandbox")
      const gateway = yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: "benchcard", type: "automatic", active: true })
      return { merchantId: merchant.id, gatewayId: gateway.id }
    }))
    const nowMicros = BigInt(Date.now()) * 1000n
    const plan = await onPostgres(url.toString(), async (client) => {
      const started = performance.now()
      await seedSubscriptions(client, { merchantId, gatewayId, total, due: DUE, nowMicros })
      const seededMs = performance.now() - started
      await client.query("VACUUM ANALYZE")
      const explained = await client.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${DUE_QUERY}`, [String(nowMicros)])
      const due = await client.query("SELECT COUNT(*)::int AS n FROM subscriptions WHERE wake_at <= $1", [String(nowMicros)])
      return { seededMs, due: due.rows[0].n, lines: explained.rows.map((row) => row["QUERY PLAN"]) }
    })
    const ticks = []
    for (;;) {
      const started = performance.now()
      const cpu = process.cpuUsage()
      const report = await runtime.runPromise(tick(BATCH))
      if (report.processed === 0) break
      const used = process.cpuUsage(cpu)
      ticks.push({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, ...report })
    }
    return { total, ...plan, ticks }
  } finally {
    await runtime.dispose()
    await onPostgres(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
  }
}

/** Milliseconds (wall, or this process's CPU) per subscription the ticks moved. */
const perItem = (ticks, key = "ms") => ticks.reduce((sum, t) => sum + t[key], 0) / ticks.reduce((sum, t) => sum + t.pastDue, 0)
const fixed = (value, digits = 3) => value.toFixed(digits)

console.log(`scheduler scale: Node ${process.version}, PostgreSQL at ${baseUrl.replace(/\/\/[^@/]*@/, "//***@")}, ticks of ${BATCH}, ${DUE} due per size`)
const results = []
for (const total of SIZES) {
  const result = await runSize(total)
  results.push(result)
  const processed = result.ticks.reduce((sum, t) => sum + t.processed, 0)
  const failed = result.ticks.reduce((sum, t) => sum + t.failed, 0)
  console.log(`\n${total.toLocaleString("en")} subscriptions (${result.due.toLocaleString("en")} due), seeded in ${fixed(result.seededMs / 1000, 1)} s`)
  console.log(`  ${result.ticks.length} ticks, ${processed} processed, ${failed} failed; ms per tick: ${result.ticks.map((t) => Math.round(t.ms)).join(", ")}`)
  console.log(`  CPU ms per tick: ${result.ticks.map((t) => Math.round(t.cpuMs)).join(", ")}`)
  console.log(`  per processed subscription: ${fixed(perItem(result.ticks))} ms, ${fixed(perItem(result.ticks, "cpuMs"))} ms of CPU ` +
    `(after the first tick: ${fixed(perItem(result.ticks.slice(1)))} ms, ${fixed(perItem(result.ticks.slice(1), "cpuMs"))} ms of CPU)`)
  console.log("  due query plan (first batch):")
  for (const line of result.lines) console.log(`    ${line}`)
}
const after = (result, key) => perItem(result.ticks.slice(1), key)
const [small, large] = [results[0], results[results.length - 1]]
const sized = (result) => `${fixed(after(result, "cpuMs"))} ms of CPU at ${result.total.toLocaleString("en")}`
console.log(`\nper subscription, after the first tick: ${results.map(sized).join(", ")}; ` +
  `ratio ${fixed(after(large, "cpuMs") / after(small, "cpuMs"), 2)} (targets: <= 1 ms of CPU, ratio <= 1.3); wall ${results.map((result) => fixed(after(result))).join(" and ")} ms`)
console.log(`BENCH_JSON ${JSON.stringify(results.map((result) => ({
  rows: result.total,
  due: result.due,
  ticks: result.ticks.length,
  processed: result.ticks.reduce((sum, t) => sum + t.processed, 0),
  failed: result.ticks.reduce((sum, t) => sum + t.failed, 0),
  wallMsPerSubscription: after(result, "ms"),
  cpuMsPerSubscription: after(result, "cpuMs")
})))}`)
