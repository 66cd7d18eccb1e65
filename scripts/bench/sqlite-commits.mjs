// The SQLite durable-commit ceiling: one-row INSERTs, each its own transaction, one after another on
// one connection, with the kit's pragmas (WAL, synchronous=FULL, foreign keys, busy timeout) on a
// fresh file. No server can commit payments one by one faster than this on this disk; started by
// load.mjs on the server core. The first `warmupSeconds` are discarded.
import { randomBytes } from "node:crypto"
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import Database from "better-sqlite3"

const { dir, warmupSeconds, durationSeconds } = JSON.parse(process.env["BENCH_OPTIONS"] ?? "{}")

const db = new Database(join(dir, `commits-${process.pid}.db`))
db.pragma("journal_mode = WAL")
db.pragma("synchronous = FULL")
db.pragma("foreign_keys = ON")
db.pragma("busy_timeout = 5000")
// About a payment row's size, with the unique reference index a payment has.
db.exec(`CREATE TABLE commits (id INTEGER PRIMARY KEY, trx_id TEXT NOT NULL UNIQUE, amount_minor INTEGER NOT NULL,
  currency TEXT NOT NULL, status TEXT NOT NULL, ipn_url TEXT NOT NULL, created_at TEXT NOT NULL)`)
const insert = db.prepare("INSERT INTO commits (trx_id, amount_minor, currency, status, ipn_url, created_at) VALUES (?, ?, 'USD', 'pending', ?, ?)")
const prefix = randomBytes(8).toString("hex")

let sequence = 0
const commitOnce = () => {
  sequence += 1
  insert.run(`${prefix}-${sequence}`, 10_000, "https://merchant.example/ipn", new Date().toISOString())
}

const warmupEnd = performance.now() + warmupSeconds * 1000
while (performance.now() < warmupEnd) commitOnce()

/** @type {number[]} */
const latencies = []
const start = performance.now()
const end = start + durationSeconds * 1000
for (let now = start; now < end;) {
  commitOnce()
  const after = performance.now()
  latencies.push(after - now)
  now = after
}
const measuredSeconds = (performance.now() - start) / 1000
db.close()

const sorted = Float64Array.from(latencies).sort()
const percentile = (p) => (sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)])
console.log(`BENCH_JSON ${JSON.stringify({
  rps: latencies.length / measuredSeconds, p50Ms: percentile(50), p99Ms: percentile(99), requests: latencies.length,
  non2xx: 0, errors: 0, measuredSeconds,
  // maxRSS is in KiB: this process's own peak, since nothing else reads its /proc after it exits.
  peakRssMiB: process.resourceUsage().maxRSS / 1024
})}`)
