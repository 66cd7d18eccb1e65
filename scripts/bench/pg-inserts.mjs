// PostgreSQL's durable-insert ceiling at the bench's concurrency: `clients` connections, each
// inserting one row per autocommit transaction as fast as it can, into a fresh throw-away table
// (dropped at the end). It reports the server's synchronous_commit and fsync, which decide what
// "durable" means there. Uses `pg`, the driver @effect/sql-pg brings; started by load.mjs on the
// load core. The first `warmupSeconds` are discarded.
import { randomBytes } from "node:crypto"
import { performance } from "node:perf_hooks"
import pg from "pg"

const { url, clients, warmupSeconds, durationSeconds } = JSON.parse(process.env["BENCH_OPTIONS"] ?? "{}")

const pool = new pg.Pool({ connectionString: url, max: clients })
const table = `bench_commits_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`
const prefix = randomBytes(8).toString("hex")

await pool.query(`CREATE TABLE ${table} (id BIGSERIAL PRIMARY KEY, trx_id TEXT NOT NULL UNIQUE, amount_minor BIGINT NOT NULL,
  currency TEXT NOT NULL, status TEXT NOT NULL, ipn_url TEXT NOT NULL, created_at TIMESTAMPTZ NOT NULL)`)
try {
  const settings = await pool.query("SELECT current_setting('synchronous_commit') AS sc, current_setting('fsync') AS fs")
  const insert = `INSERT INTO ${table} (trx_id, amount_minor, currency, status, ipn_url, created_at)
    VALUES ($1, 10000, 'USD', 'pending', 'https://merchant.example/ipn', now())`
  let sequence = 0
  const measuredFrom = performance.now() + warmupSeconds * 1000
  const end = measuredFrom + durationSeconds * 1000
  /** @type {number[]} */
  const latencies = []
  let errors = 0

  const worker = async () => {
    const client = await pool.connect()
    try {
      for (let started = performance.now(); started < end; started = performance.now()) {
        try {
          await client.query(insert, [`${prefix}-${(sequence += 1)}`])
          if (started >= measuredFrom) latencies.push(performance.now() - started)
        } catch {
          if (started >= measuredFrom) errors += 1
        }
      }
    } finally {
      client.release()
    }
  }
  await Promise.all(Array.from({ length: clients }, worker))

  const measuredSeconds = (performance.now() - measuredFrom) / 1000
  const sorted = Float64Array.from(latencies).sort()
  const percentile = (p) => (sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)])
  console.log(`BENCH_JSON ${JSON.stringify({
    rps: latencies.length / measuredSeconds, p50Ms: percentile(50), p99Ms: percentile(99), requests: latencies.length,
    non2xx: 0, errors, measuredSeconds, synchronousCommit: settings.rows[0].sc, fsync: settings.rows[0].fs
  })}`)
} finally {
  await pool.query(`DROP TABLE IF EXISTS ${table}`)
  await pool.end()
}
