// One HTTP load, run by load.mjs in its own process on the load core (a fresh load generator per
// row, so no row inherits another's heap or JIT state). One autocannon instance runs the warm-up and
// the measured run back to back on the same keep-alive connections; what answers during the first
// `warmupSeconds` is discarded. No request rate is set, so autocannon applies no coordinated-omission
// correction, and each latency is that response's own hrtime duration (autocannon's histogram has
// 1 ms resolution, which reads a fast server's p50 as 0 ms).
// Kinds: "plain" (GET `path`, fixed request), "signed-get" (GET `path`, signed afresh per request),
// "initiate" (a fresh ref_trx, body and signature per request), "mixed" (each connection loops
// initiate, verify of that payment, site-info: the soak). `progressSeconds` prints cumulative counts.
// `BENCH_MARK measuring` is printed the moment the measured window opens and `BENCH_MARK measured`
// the moment the load has stopped, so the bench reads the server's own CPU and allocation counters
// over exactly the window whose responses are counted here.
import { randomBytes } from "node:crypto"
import { performance } from "node:perf_hooks"
import autocannon from "autocannon"
import { INITIATE, initiateBody, signedHeaders, SITE_INFO } from "./signing.mjs"

const options = JSON.parse(process.env["BENCH_OPTIONS"] ?? "{}")
const { base, kind, path, credentials, connections, warmupSeconds, durationSeconds, progressSeconds } = options

// Unique across runs too: a PostgreSQL database may be reused, and its old payments keep their refs.
const run = `bench-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`
let sequence = 0

const signedGet = (target) => (request, context) => {
  const resolved = typeof target === "function" ? target(context) : target
  return { ...request, method: "GET", path: resolved, headers: { ...request.headers, ...signedHeaders(credentials, "GET", resolved) } }
}
const signedInitiate = (request) => {
  const body = initiateBody(`${run}-${(sequence += 1)}`)
  return { ...request, method: "POST", path: INITIATE, body, headers: { ...request.headers, ...signedHeaders(credentials, "POST", INITIATE, body) } }
}
// A failed initiate leaves no trx_id: its verify then asks for one that does not exist and counts as a non-2xx.
const rememberTrxId = (status, body, context) => {
  if (status === 200) context.trxId = JSON.parse(String(body)).info.trx_id
}

const requestsOf = {
  plain: () => undefined,
  "signed-get": () => [{ setupRequest: signedGet(path) }],
  initiate: () => [{ setupRequest: signedInitiate }],
  mixed: () => [
    { setupRequest: signedInitiate, onResponse: rememberTrxId },
    { setupRequest: signedGet((context) => `/api/v1/verify-payment/${context.trxId ?? "no-trx-id"}`) },
    { setupRequest: signedGet(SITE_INFO) }
  ]
}
if (!(kind in requestsOf)) throw new Error(`unknown load kind "${kind}"`)
const requests = requestsOf[kind]()

const instance = autocannon({
  url: base + (path ?? "/"),
  connections,
  duration: warmupSeconds + durationSeconds,
  ...(requests === undefined ? {} : { requests })
})

let measuring = warmupSeconds === 0
let measuredFrom = performance.now()
if (measuring) console.log("BENCH_MARK measuring")
/** @type {number[]} */
const latencies = []
const counts = { requests: 0, non2xx: 0, errors: 0 }
const startedAt = performance.now()
setTimeout(() => {
  measuring = true
  measuredFrom = performance.now()
  console.log("BENCH_MARK measuring")
}, warmupSeconds * 1000).unref()

instance.on("response", (_client, status, _bytes, responseTimeMs) => {
  if (!measuring) return
  counts.requests += 1
  if (status < 200 || status > 299) counts.non2xx += 1
  // The soak runs for many minutes and needs counts only.
  if (progressSeconds === undefined) latencies.push(responseTimeMs)
})
// Socket errors and timeouts (a timeout is reported here too): requests that got no response at all.
instance.on("reqError", () => {
  if (measuring) counts.errors += 1
})
if (progressSeconds !== undefined) {
  setInterval(() => {
    const elapsedSeconds = Math.round((performance.now() - startedAt) / 1000)
    console.log(`BENCH_PROGRESS ${JSON.stringify({ elapsedSeconds, ...counts })}`)
  }, progressSeconds * 1000).unref()
}

await instance
const measuredSeconds = (performance.now() - measuredFrom) / 1000
console.log("BENCH_MARK measured")
const sorted = Float64Array.from(latencies).sort()
/** Nearest-rank percentile of an ascending array. */
const percentile = (p) => (sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)])

// Over the measured part's own elapsed time (autocannon stops on its next 1 s tick, so it is not exactly `durationSeconds`).
console.log(`BENCH_JSON ${JSON.stringify({ rps: counts.requests / measuredSeconds, p50Ms: percentile(50), p99Ms: percentile(99), ...counts, measuredSeconds })}`)
