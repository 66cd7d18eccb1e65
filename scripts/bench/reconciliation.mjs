// `node scripts/bench/reconciliation.mjs [--store sqlite|postgres] [--skip-build]` (postgres: DATABASE_URL or
// TEST_DATABASE_URL, a postgres:// URL whose user may create databases). A synthetic month of one gateway:
// 90,000 completed payments (each with the gateway's reference on its checkout attempt and its journal
// entry) and 10,000 refunds sent through the gateway (with theirs), seeded in bulk on a throw-away store
// migrated by the kit itself. The gateway's settlement CSV for the month holds every one of them but for
// a few deliberate differences: 5 amounts off by a cent, 4 payments left out, 3 references the kit never
// saw, 1 payout. It is then reconciled through the kit's own use case (CSV parsed, lines written in bulk,
// matched in SQL) and the time and counts printed, with the lines no difference explains (zero is right).
// Numbers only, never an exit code: the target (a month of 100,000 in under a minute) is for the reader.
import { spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { performance } from "node:perf_hooks"
import { fileURLToPath, pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { throwAwayDatabase } from "./processes.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const PAYMENTS = 90_000
const REFUNDS = 10_000
const DIFFERS = 5
const LEFT_OUT = 4
const UNKNOWN = 3
const BATCH = 500
const FROM = Date.UTC(2030, 0, 1)
const TO = Date.UTC(2030, 1, 1)
const ATOMS_PER_CENT = 1_000_000n

const { values: flags } = parseArgs({ options: { store: { type: "string", default: "sqlite" }, "skip-build": { type: "boolean", default: false } } })
const baseUrl = process.env["DATABASE_URL"] || process.env["TEST_DATABASE_URL"] || ""
if (flags.store === "postgres" && !/^postgres(ql)?:\/\//.test(baseUrl)) {
  console.error("reconciliation: --store postgres needs DATABASE_URL (or TEST_DATABASE_URL), a postgres:// URL whose user may create databases")
  process.exit(1)
}
if (!flags["skip-build"]) {
  const build = spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" })
  if (build.status !== 0) throw new Error(`npm run build failed (exit ${build.status})`)
}
const load = (path) => import(pathToFileURL(join(ROOT, "dist", path)).href)
const { Effect, Layer, Logger, LogLevel, ManagedRuntime } = await import("effect")
const { SqlClient } = await import("@effect/sql")
const { defaultWebhookConfig, kitLayer } = await load("hosts/kit-layer.js")
const { defaultCurrencyCatalog } = await load("core/money/currencies.js")
const { defaultSiteSettings } = await load("core/settings/site-settings.js")
const { createMerchant, replaceCurrencies } = await load("core/merchants/merchant-admin.js")
const { createWallet } = await load("core/wallets/wallet-admin.js")
const { createGateway } = await load("core/gateways/gateway-admin.js")
const { reconcileUpload } = await load("core/reconciliation/reconcile.js")

const micros = (millis) => BigInt(millis) * 1000n
const pad = (i) => String(i).padStart(6, "0")
const cents = (i) => 1000 + (i * 7919) % 90000
const decimal = (value) => `${value < 0 ? "-" : ""}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, "0")}`
/** Spread over the month, an hour clear of its end so each settles inside it. */
const momentOf = (i, total) => FROM + Math.floor((i * (TO - FROM - 7_200_000)) / total)

/** Every row of the month, inserted BATCH at a time in one transaction. */
const seed = (merchantId, gatewayId) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const wallet = `merchant:${merchantId}:wallet`
    const insert = (table, rows) => Effect.forEach(
      Array.from({ length: Math.ceil(rows.length / BATCH) }, (_, n) => rows.slice(n * BATCH, (n + 1) * BATCH)),
      (chunk) => sql`INSERT INTO ${sql(table)} ${sql.insert(chunk)}`,
      { discard: true }
    )
    const payments = []
    const attempts = []
    const entries = []
    const lines = []
    for (let i = 1; i <= PAYMENTS; i++) {
      const at = micros(momentOf(i, PAYMENTS))
      const amount = BigInt(cents(i)) * ATOMS_PER_CENT
      const trx = `BENCH${pad(i)}`
      payments.push({
        trx_id: trx, merchant_id: merchantId, environment: "sandbox", ref_trx: `order-${i}`, amount, currency: "USD", status: "success",
        failure_reason: null, fee: 0n, net: amount, refunded_amount: 0n, description: null, customer_name: null, customer_email: null,
        ipn_url: "https://shop.example/ipn", success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel",
        allow_payment_methods: "[]", gateway_ids: `[${gatewayId}]`, gateway_id: gatewayId, invoice_id: null,
        expires_at: at + 3_600_000_000n, completed_at: at, created_at: at - 60_000_000n, updated_at: at
      })
      attempts.push({ trx_id: trx, gateway_id: gatewayId, gateway_reference: `cs_bench_${pad(i)}`, began_at: at - 30_000_000n, next_sync_at: null, sync_count: 0, declined_at: null })
      entries.push({ id: i, kind: "payment_completed", reference: trx, created_at: at })
      lines.push({ entry_id: i, environment: "sandbox", currency: "USD", account: "gateway:clearing", amount })
      lines.push({ entry_id: i, environment: "sandbox", currency: "USD", account: wallet, amount: -amount })
    }
    const refunds = []
    const gatewayRefunds = []
    for (let j = 1; j <= REFUNDS; j++) {
      const at = micros(momentOf(j, REFUNDS) + 1_800_000)
      const paid = payments[(j * 7) % PAYMENTS]
      const amount = (paid.amount / ATOMS_PER_CENT / 2n) * ATOMS_PER_CENT
      const id = `BENCHRF${pad(j)}`
      refunds.push({
        refund_trx_id: id, payment_trx_id: paid.trx_id, merchant_id: merchantId, environment: "sandbox", amount, currency: "USD",
        reason: null, ref_refund: null, total_refunded: amount, remaining_refund: paid.amount - amount, created_at: at
      })
      gatewayRefunds.push({
        refund_trx_id: id, payment_trx_id: paid.trx_id, gateway_id: gatewayId, amount, currency: "USD", idempotency_key: `mp-refund-${id}`,
        status: "succeeded", attempts: 1, next_attempt_at: null, gateway_reference: `re_bench_${pad(j)}`, message: null,
        created_at: at, updated_at: at, lease_until: null
      })
      entries.push({ id: PAYMENTS + j, kind: "refund", reference: id, created_at: at })
      lines.push({ entry_id: PAYMENTS + j, environment: "sandbox", currency: "USD", account: wallet, amount })
      lines.push({ entry_id: PAYMENTS + j, environment: "sandbox", currency: "USD", account: "gateway:clearing", amount: -amount })
    }
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* insert("payments", payments)
      yield* insert("checkout_attempts", attempts)
      yield* insert("refunds", refunds)
      yield* insert("gateway_refunds", gatewayRefunds)
      yield* insert("journal_entries", entries)
      yield* insert("journal_lines", lines)
    }))
    yield* sql.onDialectOrElse({ pg: () => sql`ANALYZE`, orElse: () => sql`ANALYZE` })
    return { payments, refunds }
  })

/** The gateway's side: every transaction settled an hour after it, but for the deliberate differences. */
const settlementCsv = (code, payments, refunds) => {
  const out = ["gateway,environment,gateway_reference,type,amount,currency,settled_at"]
  const settled = (completedMicros) => new Date(Number(completedMicros / 1000n) + 3_600_000).toISOString()
  payments.forEach((payment, index) => {
    if (index >= 100 && index < 100 + LEFT_OUT) return
    const off = index >= 200 && index < 200 + DIFFERS ? 1 : 0
    out.push(`${code},sandbox,cs_bench_${payment.trx_id.slice(5)},payment,${decimal(Number(payment.amount / ATOMS_PER_CENT) + off)},USD,${settled(payment.completed_at)}`)
  })
  refunds.forEach((refund) =>
    out.push(`${code},sandbox,re_bench_${refund.refund_trx_id.slice(7)},refund,${decimal(-Number(refund.amount / ATOMS_PER_CENT))},USD,${settled(refund.created_at)}`))
  for (let k = 1; k <= UNKNOWN; k++) out.push(`${code},sandbox,cs_unknown_${k},payment,10.00,USD,2030-01-20T12:00:00Z`)
  out.push(`${code},sandbox,po_bench_1,payout,-100000.00,USD,2030-01-31T12:00:00Z`)
  return `${out.join("\r\n")}\r\n`
}


let store
let database
if (flags.store === "postgres") {
  database = await throwAwayDatabase(baseUrl, "mp_recon_bench")
  store = { kind: "postgres", url: database.url }
} else {
  store = { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-recon-bench-")), "store.db") }
}
const runtime = ManagedRuntime.make(kitLayer({
  store,
  masterKey: new Uint8Array(32).fill(7),
  adminToken: "bench-admin-token",
  settings: defaultSiteSettings,
  currencies: defaultCurrencyCatalog,
  baseUrl: "https://pay.example",
  checkoutLifetimeSeconds: 3600,
  webhooks: defaultWebhookConfig,
  backgroundJobs: false,
  scheduler: { enabled: false, batchSize: 100 }
}).pipe(Layer.provide(Layer.setTracerEnabled(false)), Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))))
try {
  const { gateway, merchantId } = await runtime.runPromise(Effect.gen(function*() {
    const merchant = yield* createMerchant({ name: "Bench shop", status: "approved" })
    yield* replaceCurrencies(merchant.id, ["USD"])
    yield* createWallet(merchant.id, "USD", "sandbox")
    const gateway = yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: "benchcard", type: "automatic", active: true })
    return { merchantId: merchant.id, gateway }
  }))
  const seededAt = performance.now()
  const { payments, refunds } = await runtime.runPromise(seed(merchantId, gateway.id))
  const seededMs = performance.now() - seededAt
  const csv = settlementCsv(gateway.code, payments, refunds)
  const started = performance.now()
  const report = await runtime.runPromise(reconcileUpload(csv, { from: micros(FROM), to: micros(TO) }))
  const ms = performance.now() - started
  const expected = { matched: PAYMENTS + REFUNDS - LEFT_OUT - DIFFERS, amount_differs: DIFFERS, missing_at_gateway: LEFT_OUT, missing_in_kit: UNKNOWN, gateway_only: 1 }
  const unexplained = Object.entries(expected).reduce((sum, [outcome, count]) => sum + Math.abs(report.counts[outcome] - count), 0)
  console.log(`reconciliation (${flags.store}): ${PAYMENTS + REFUNDS} kit transactions seeded in ${(seededMs / 1000).toFixed(1)} s; ` +
    `a report of ${report.lineCount} lines (${(csv.length / 1048576).toFixed(1)} MiB) reconciled in ${(ms / 1000).toFixed(2)} s`)
  console.log(`  counts: ${JSON.stringify(report.counts)}; unexplained lines: ${unexplained}`)
  console.log(`BENCH_JSON ${JSON.stringify({ store: flags.store, transactions: PAYMENTS + REFUNDS, lines: report.lineCount, seconds: ms / 1000, counts: report.counts, unexplained })}`)
} finally {
  await runtime.dispose()
  await database?.drop()
}
