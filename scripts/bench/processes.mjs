// Spawning, health-waiting, memory sampling and stopping of the benchmarked servers. Each server is
// its own process so the load generator never shares (and so never steals from) its event loop.
import { spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { serverPrefix } from "./pinning.mjs"
import { closeSync, existsSync, openSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import pg from "pg"
import { dirname, join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const PROBE = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "probe.mjs")).href

/** A port the kernel just handed out; it is released again before the server binds it (small race, fine here). */
export const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/**
 * @typedef {object} Server
 * @property {string} name
 * @property {import("node:child_process").ChildProcess} child
 * @property {string} logPath   stdout and stderr together: read only when something goes wrong
 * @property {number|string|null} exitCode  the exit code or killing signal, once the process has exited
 * @property {string} [probeFile]  where its probe (probe.mjs) writes a line per SIGUSR2, when started with one
 * @property {number} [probeReads]  how many snapshots have been asked of it
 */

/** Starts `node <args>` with `env`, its output in `logPath` (never on our stdout: the banner prints secrets). */
export const startNode = (name, args, env, logPath, prefix = serverPrefix) => {
  const log = openSync(logPath, "a")
  // taskset execs node, so the child's pid is the server's own (RSS is read from it).
  const [command, ...prefixArgs] = [...prefix, process.execPath]
  const child = spawn(/** @type {string} */ (command), [...prefixArgs, ...args], { env, stdio: ["ignore", log, log] })
  closeSync(log)
  /** @type {Server} */
  const server = { name, child, logPath, exitCode: null }
  child.once("exit", (code, signal) => {
    server.exitCode = code ?? signal ?? -1
  })
  return server
}

/**
 * `startNode` with probe.mjs preloaded, so `probeSnapshot` can read the server's own CPU time and
 * allocated bytes. Every server of a comparison is started this way: the probe's own small cost (a
 * record per garbage collection) falls on all of them alike.
 */
export const startProbedNode = (name, args, env, logPath, prefix = serverPrefix) => {
  const probeFile = `${logPath}.probe.jsonl`
  const server = startNode(name, ["--import", PROBE, ...args], { ...env, BENCH_PROBE_FILE: probeFile }, logPath, prefix)
  server.probeFile = probeFile
  server.probeReads = 0
  return server
}

/**
 * @typedef {{ cpuUs: number, allocatedBytes: number, responses: number, atMs: number, lateMs: number }} ProbeSnapshot
 * cumulative since the server started (allocation and responses: since the probe loaded); `atMs` when it
 * was read (CLOCK_MONOTONIC), `lateMs` how long after the signal
 */

/**
 * Asks the server's probe for its counters now (SIGUSR2) and resolves them once written. The signal
 * is sent synchronously; the server reads its counters on its next turn of the event loop, all in
 * the same instant, so per-response figures stay consistent even when a busy server answers late.
 * @returns {Promise<ProbeSnapshot>}
 */
export const probeSnapshot = async (server, timeoutMs = 15_000) => {
  if (server.probeFile === undefined) throw new Error(`${server.name} was started without the probe`)
  const wanted = (server.probeReads += 1)
  const askedAtMs = Number(process.hrtime.bigint() / 1000n) / 1000
  server.child.kill("SIGUSR2")
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const lines = existsSync(server.probeFile) ? readFileSync(server.probeFile, "utf8").split("\n").filter((line) => line !== "") : []
    const line = lines.find((text) => JSON.parse(text).sequence === wanted)
    if (line !== undefined) {
      const read = JSON.parse(line)
      return {
        cpuUs: read.cpuUserUs + read.cpuSystemUs, allocatedBytes: read.allocatedBytes, responses: read.responses, atMs: read.atMs,
        lateMs: read.atMs - askedAtMs
      }
    }
    if (server.exitCode !== null) throw new Error(`${server.name} exited (${server.exitCode}) before its probe answered`)
    if (Date.now() > deadline) throw new Error(`${server.name}'s probe did not answer within ${timeoutMs} ms`)
    await sleep(2)
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Polls `url` until it answers 200; fails early if the process dies, so a bad config is not a 60 s hang. */
const pollForOk = async (server, url, timeoutMs = 60_000) => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (server.exitCode !== null) throw new Error(`${server.name} exited with ${server.exitCode} before answering ${url}`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      await response.arrayBuffer()
      if (response.status === 200) return
    } catch {
      // Not listening yet: keep polling.
    }
    if (Date.now() > deadline) throw new Error(`${server.name} did not answer 200 on ${url} within ${timeoutMs} ms`)
    await sleep(200)
  }
}

/** `pollForOk`, its failure carrying the end of the server's log: why it did not start is there. */
export const waitForOk = (server, url, timeoutMs) =>
  pollForOk(server, url, timeoutMs).catch((error) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n--- ${server.name} log ---\n${logTail(server)}`)
  })

/** One field of /proc/<pid>/status in MiB, or undefined off Linux or once the process is gone. */
const procStatusMiB = (pid, field) => {
  try {
    const match = readFileSync(`/proc/${pid}/status`, "utf8").match(new RegExp(`^${field}:\\s+(\\d+) kB`, "m"))
    return match === null ? undefined : Number(match[1]) / 1024
  } catch {
    return undefined
  }
}

/** Resident set size now (VmRSS): read before the load, it shows what the run itself added. */
export const rssMiB = (server) => (server.child.pid === undefined ? undefined : procStatusMiB(server.child.pid, "VmRSS"))

/** Peak resident set size so far (VmHWM): the kernel keeps the maximum, so one read after the run suffices. */
export const peakRssMiB = (server) => (server.child.pid === undefined ? undefined : procStatusMiB(server.child.pid, "VmHWM"))

/** SIGTERM (the host shuts down gracefully on it), then SIGKILL if it lingers. Safe to call twice. */
export const stop = async (server, graceMs = 5_000) => {
  if (server.exitCode !== null || server.child.pid === undefined) return
  const exited = new Promise((resolve) => server.child.once("exit", resolve))
  server.child.kill("SIGTERM")
  const timer = sleep(graceMs).then(() => "timeout")
  if ((await Promise.race([exited, timer])) === "timeout" && server.exitCode === null) {
    server.child.kill("SIGKILL")
    await exited
  }
}

/** Synchronous last resort for process exit paths, where nothing can be awaited. */
export const killNow = (server) => {
  if (server.exitCode === null) server.child.kill("SIGKILL")
}

// The host's start banner prints its admin token and demo secrets: throwaway here, but keep them out of CI logs.
const SECRET = /\b(adm_|test_mk_|test_ak_|live_mk_|live_ak_|cs_|whsec_)[A-Za-z0-9]+/g

/** The last lines of a server's log (secrets masked), to show why it failed. */
export const logTail = (server, lines = 30) => {
  try {
    const text = readFileSync(server.logPath, "utf8").replace(SECRET, "$1***")
    return text.trimEnd().split("\n").slice(-lines).join("\n")
  } catch {
    return "(no log)"
  }
}

/** USER_HZ: /proc/<pid>/stat counts CPU time in these (100 on Linux). */
const CLOCK_TICKS = 100

/** utime + stime of a process in milliseconds, from /proc (Linux); NaN once it is gone or off Linux. */
export const processCpuMs = (pid) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS
  } catch {
    return Number.NaN
  }
}

/** `run` with a client of its own on the PostgreSQL at `url` (creating or dropping a bench database, say), always closed after. */
export const onPostgres = async (url, run) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await run(client)
  } finally {
    await client.end()
  }
}

/**
 * A database of its own on the PostgreSQL server at `url`, named `prefix` and random hex, so a run
 * never starts on what an earlier one left (leases, failing targets, rows): its URL, and `drop`.
 */
export const throwAwayDatabase = async (url, prefix) => {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`
  await onPostgres(url, (client) => client.query(`CREATE DATABASE ${name}`))
  const own = new URL(url)
  own.pathname = `/${name}`
  return {
    url: own.toString(),
    drop: () => onPostgres(url, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).catch(() => {})
  }
}
