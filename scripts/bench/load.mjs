// Load generation: wrk when installed (C, multi-threaded, so it takes less CPU from the server on a
// small machine), otherwise autocannon in this process. Loads that need code per request (a fresh
// body and HMAC each time, which wrk's Lua cannot compute) run autocannon in a child process on the
// load core instead. All report the same shape of result.
import { spawn, spawnSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import autocannon from "autocannon"
import { loadPrefix, pinned } from "./pinning.mjs"

/**
 * @typedef {object} LoadResult
 * @property {number} rps         requests per second over the measured run
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} non2xx      wrk counts only status >= 400 here; autocannon counts every non-2xx
 * @property {number} errors      socket errors and timeouts (no response at all)
 * @property {number} requests
 */

/** @returns {string|undefined} the wrk binary, if `which` finds one */
export const findWrk = () => {
  const found = spawnSync("which", ["wrk"], { encoding: "utf8" })
  return found.status === 0 && found.stdout.trim() !== "" ? found.stdout.trim() : undefined
}

// wrk's own text output mixes units (us/ms/s, k/M); a done() hook printing raw counters is exact.
const WRK_REPORT = `done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('BENCH_JSON {"requests":%.0f,"duration_us":%.0f,"p50_us":%.0f,"p99_us":%.0f,"non2xx":%.0f,"errors":%.0f}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), e.status,
    e.connect + e.read + e.write + e.timeout))
end
`

/**
 * @param {{ wrk: string|undefined, workDir: string, url: string, headers: Record<string,string>,
 *           connections: number, durationSeconds: number }} options
 * @returns {Promise<LoadResult>}
 */
export const runLoad = (options) => (options.wrk === undefined ? runAutocannon(options) : runWrk(options))

/** Nearest-rank percentile of an ascending array. */
const percentile = (sorted, p) => (sorted.length === 0 ? Number.NaN : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)])

/**
 * autocannon in this process. `requests`, when given, is autocannon's own list (for instance one
 * request with a `setupRequest` hook that builds each request afresh).
 * @param {{ url: string, headers: Record<string,string>, connections: number, durationSeconds: number, requests?: object[] }} options
 * @returns {Promise<LoadResult>}
 */
export const runAutocannon = async ({ url, headers, connections, durationSeconds, requests }) => {
  const instance = autocannon({ url, headers, connections, duration: durationSeconds, ...(requests === undefined ? {} : { requests }) })
  // autocannon's own latency histogram has 1 ms resolution, so a fast server reads "p50 0 ms".
  // Its per-response event carries the exact hrtime duration; keep those (a few MB per run).
  /** @type {number[]} */
  const latencies = []
  instance.on("response", (_client, _status, _bytes, responseTimeMs) => latencies.push(responseTimeMs))
  const result = await instance
  const sorted = Float64Array.from(latencies).sort()
  return {
    // The total over the run's own elapsed time, not the mean of per-second samples, so a partial
    // last second does not skew short runs.
    rps: result.requests.total / Math.max(result.duration, 1e-9),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    requests: result.requests.total
  }
}

/** Runs `command` (after the load core's prefix) and resolves the JSON of its `BENCH_JSON ` line. */
const spawnForJson = (name, command, args, env = process.env) =>
  new Promise((resolve, reject) => {
    const [executable, ...prefixArgs] = [...loadPrefix, command]
    const child = spawn(/** @type {string} */ (executable), [...prefixArgs, ...args], { env, stdio: ["ignore", "pipe", "pipe"] })
    let out = ""
    child.stdout.on("data", (chunk) => (out += chunk))
    child.stderr.on("data", (chunk) => (out += chunk))
    child.once("error", reject)
    child.once("exit", (code) => {
      const line = out.split("\n").find((text) => text.startsWith("BENCH_JSON "))
      if (code !== 0 || line === undefined) return reject(new Error(`${name} failed (exit ${code}):\n${out}`))
      resolve(JSON.parse(line.slice("BENCH_JSON ".length)))
    })
  })

/**
 * `script` (a node program that runs autocannon and prints its LoadResult as one `BENCH_JSON ` line)
 * in its own process on the load core; `options` reach it as JSON in BENCH_LOAD_OPTIONS.
 * @returns {Promise<LoadResult>}
 */
export const runNodeLoad = (script, options) =>
  spawnForJson(`load generator ${script}`, process.execPath, [script], { ...process.env, BENCH_LOAD_OPTIONS: JSON.stringify(options) })

const runWrk = async ({ wrk, workDir, url, headers, connections, durationSeconds }) => {
  const script = join(workDir, "wrk-report.lua")
  writeFileSync(script, WRK_REPORT)
  const headerArgs = Object.entries(headers).flatMap(([name, value]) => ["-H", `${name}: ${value}`])
  // One thread when pinned to one core; two otherwise, to keep up with a fast baseline.
  const threads = pinned ? "-t1" : "-t2"
  const args = [threads, `-c${connections}`, `-d${durationSeconds}s`, "--timeout", "10s", "-s", script, ...headerArgs, url]
  const raw = await spawnForJson("wrk", /** @type {string} */ (wrk), args)
  return {
    rps: raw.requests / (raw.duration_us / 1e6),
    p50Ms: raw.p50_us / 1000,
    p99Ms: raw.p99_us / 1000,
    non2xx: raw.non2xx,
    errors: raw.errors,
    requests: raw.requests
  }
}
