// `npm run bench -- --soak SECONDS`: a mixed load on the kit over SQLite for SECONDS (each of the 50
// connections loops initiate, verify of the payment it just made, site-info), the host's RSS and
// the running error count printed every 30 s, then whether RSS stayed flat after the first minute
// (the warm-up: JIT, caches, SQLite's page cache). Information for a reader, never an exit code.
import { runLoad } from "./load.mjs"
import { logTail, peakRssMiB, rssMiB } from "./processes.mjs"

const SAMPLE_SECONDS = 30
const SETTLE_SECONDS = 60
/** Growth after the first minute still called flat: allocator and page-cache noise, not a leak. */
const FLAT_PERCENT = 10

const fixed = (value, digits) => (value === undefined || Number.isNaN(value) ? "n/a" : value.toFixed(digits))
const columns = (cells) => cells.map((cell, index) => cell.padStart([8, 10, 15, 16, 11, 9, 8][index] ?? 8)).join("  ")

/** The verdict line on the samples taken after the first minute. */
const flatness = (samples) => {
  const settled = samples.filter((sample) => sample.elapsedSeconds >= SETTLE_SECONDS && sample.rssMiB !== undefined)
  if (settled.length < 2) return `too short to judge: RSS flatness needs samples after the first ${SETTLE_SECONDS} s (try --soak 600)`
  const first = settled[0]
  const last = settled[settled.length - 1]
  const max = Math.max(...settled.map((sample) => sample.rssMiB))
  const growth = ((last.rssMiB - first.rssMiB) / first.rssMiB) * 100
  const verdict = growth <= FLAT_PERCENT ? `flat (within ${FLAT_PERCENT} %)` : `NOT flat (grew more than ${FLAT_PERCENT} %)`
  return `RSS after the first minute: ${fixed(first.rssMiB, 1)} MiB at ${first.elapsedSeconds} s, ${fixed(last.rssMiB, 1)} MiB at ` +
    `${last.elapsedSeconds} s (${growth >= 0 ? "+" : ""}${fixed(growth, 1)} %), max ${fixed(max, 1)} MiB: ${verdict}`
}

/**
 * @param {{ server: import("./processes.mjs").Server, base: string, credentials: object, seconds: number, connections: number }} options
 */
export const runSoak = async ({ server, base, credentials, seconds, connections }) => {
  console.log(`soak: ${seconds} s of mixed load (initiate, verify, site-info) on the kit over SQLite, ${connections} connections; ` +
    `RSS of the host every ${SAMPLE_SECONDS} s`)
  console.log(`idle RSS before the load: ${fixed(rssMiB(server), 1)} MiB\n`)
  console.log(columns(["t s", "RSS MiB", "peak RSS MiB", "req/s (last 30s)", "requests", "non-2xx", "errors"]))
  /** @type {Array<{ elapsedSeconds: number, rssMiB: number|undefined }>} */
  const samples = []
  let previous = { elapsedSeconds: 0, requests: 0 }
  const result = await runLoad(
    { base, kind: "mixed", credentials, connections, warmupSeconds: 0, durationSeconds: seconds, progressSeconds: SAMPLE_SECONDS },
    (progress) => {
      const sample = { elapsedSeconds: progress.elapsedSeconds, rssMiB: rssMiB(server) }
      samples.push(sample)
      const rate = (progress.requests - previous.requests) / Math.max(progress.elapsedSeconds - previous.elapsedSeconds, 1)
      previous = progress
      console.log(columns([String(progress.elapsedSeconds), fixed(sample.rssMiB, 1), fixed(peakRssMiB(server), 1), fixed(rate, 1), String(progress.requests),
        String(progress.non2xx), String(progress.errors)]))
    }
  )
  if (server.exitCode !== null) throw new Error(`${server.name} exited (${server.exitCode}) during the soak:\n${logTail(server)}`)
  // The load's last moment, when its last progress line came before its end.
  const last = samples[samples.length - 1]
  if (last === undefined || last.elapsedSeconds < seconds - 1) samples.push({ elapsedSeconds: seconds, rssMiB: rssMiB(server) })

  console.log(`\nsoak done: ${result.requests} responses (${fixed(result.rps, 1)} req/s), ${result.non2xx} non-2xx, ` +
    `${result.errors} socket errors/timeouts, peak RSS ${fixed(peakRssMiB(server), 1)} MiB`)
  console.log(result.non2xx + result.errors === 0 ? "errors: 0" : `errors: ${result.non2xx + result.errors}: the soak was NOT clean`)
  console.log(flatness(samples))
}
