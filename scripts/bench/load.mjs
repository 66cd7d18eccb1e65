// Load generation and the other measuring children. Every HTTP row is autocannon in its own process
// on the load core (load-run.mjs): 50 keep-alive connections, warm-up and measured run on the same
// connections, no coordinated-omission correction. The old bench measured each run over 50 fresh wrk
// connections with wrk's correction, which multiplied the first slow answers into multi-second tails.
// The durable-commit ceilings are children too: the SQLite loop on the server core (it is what a
// server could commit), the PostgreSQL clients on the load core (PostgreSQL itself runs unpinned).
import { spawn } from "node:child_process"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { loadPrefix, serverPrefix } from "./pinning.mjs"

const HERE = dirname(fileURLToPath(import.meta.url))

/**
 * @typedef {object} LoadResult
 * @property {number} rps               responses per second over the measured part (commits/s for a ceiling)
 * @property {number|null} p50Ms
 * @property {number|null} p99Ms
 * @property {number} requests          responses in the measured part (commits for a ceiling)
 * @property {number} non2xx            responses with a status outside 2xx
 * @property {number} errors            socket errors and timeouts: no response at all
 */

/**
 * `node script` after `prefix`, `options` as JSON in BENCH_OPTIONS (and `extra.args` and `extra.env`
 * for a script with its own command line). Resolves the JSON of its `BENCH_JSON ` line; hands the
 * JSON of each `BENCH_PROGRESS ` line to `onProgress` as it comes, and the name of each `BENCH_MARK `
 * line (the measured window opening and closing) to `onMark` the moment it comes.
 */
const runScript = (script, options, prefix, onProgress = () => {}, extra = { args: [], env: {} }, onMark = () => {}) =>
  new Promise((resolve, reject) => {
    const [executable, ...prefixArgs] = [...prefix, process.execPath]
    const child = spawn(/** @type {string} */ (executable), [...prefixArgs, join(HERE, script), ...extra.args], {
      env: { ...process.env, ...extra.env, BENCH_OPTIONS: JSON.stringify(options) },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let pending = ""
    child.stdout.on("data", (chunk) => {
      out += chunk
      pending += chunk
      const lines = pending.split("\n")
      pending = lines.pop() ?? ""
      for (const line of lines) {
        if (line.startsWith("BENCH_PROGRESS ")) onProgress(JSON.parse(line.slice("BENCH_PROGRESS ".length)))
        if (line.startsWith("BENCH_MARK ")) onMark(line.slice("BENCH_MARK ".length).trim())
      }
    })
    child.stderr.on("data", (chunk) => (out += chunk))
    child.once("error", reject)
    child.once("exit", (code) => {
      const line = out.split("\n").find((text) => text.startsWith("BENCH_JSON "))
      if (code !== 0 || line === undefined) return reject(new Error(`${script} failed (exit ${code}):\n${out}`))
      resolve(JSON.parse(line.slice("BENCH_JSON ".length)))
    })
  })

/**
 * One HTTP load (see load-run.mjs for the kinds).
 * @param {{ base: string, kind: "plain"|"signed-get"|"initiate"|"mixed", path?: string, credentials?: object,
 *           connections: number, warmupSeconds: number, durationSeconds: number, progressSeconds?: number }} options
 * @param {(progress: object) => void} [onProgress]
 * @param {string[]} [prefix]  how the load process is started (default: pinned to the load core)
 * @param {(mark: "measuring"|"measured") => void} [onMark]  told the moment the measured window opens
 *   (the warm-up is over) and closes (the load has stopped): the bench samples the server's counters then
 * @returns {Promise<LoadResult>}
 */
export const runLoad = (options, onProgress, prefix = loadPrefix, onMark) =>
  runScript("load-run.mjs", options, prefix, onProgress, undefined, onMark)

/**
 * Sequential one-row INSERT commits on a fresh SQLite file with the kit's pragmas.
 * @param {{ dir: string, warmupSeconds: number, durationSeconds: number }} options
 * @returns {Promise<LoadResult & { peakRssMiB: number }>}
 */
export const runSqliteCommits = (options) => runScript("sqlite-commits.mjs", options, serverPrefix)

/**
 * One-row INSERTs from `clients` concurrent connections into a fresh throw-away table.
 * @param {{ url: string, clients: number, warmupSeconds: number, durationSeconds: number }} options
 * @returns {Promise<LoadResult & { synchronousCommit: string, fsync: string }>}
 */
/**
 * The subscription scheduler at two table sizes on throw-away databases beside `url`
 * (scheduler-scale.mjs, on the build the bench made), unpinned: it shares the cores with PostgreSQL.
 */
export const runSchedulerScale = (url) =>
  runScript("scheduler-scale.mjs", {}, [], undefined, { args: ["--skip-build"], env: { DATABASE_URL: url } })

export const runPostgresInserts = (options) => runScript("pg-inserts.mjs", options, loadPrefix)
