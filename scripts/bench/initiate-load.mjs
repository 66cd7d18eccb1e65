// The load for signed POST /api/v1/initiate-payment, started by bench.mjs in its own process on the
// load core. Every request needs its own ref_trx, so its own body and signature: wrk's Lua has no
// HMAC, so this is autocannon with a setupRequest hook that builds both per request.
import { randomBytes } from "node:crypto"
import { runAutocannon } from "./load.mjs"
import { INITIATE, initiateBody, signedHeaders } from "./signing.mjs"

const { base, credentials, connections, durationSeconds } = JSON.parse(process.env["BENCH_LOAD_OPTIONS"] ?? "{}")
// Unique across runs too: a PostgreSQL database may be reused, and its old payments keep their refs.
const run = `bench-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`
let sequence = 0

const setupRequest = (request) => {
  const body = initiateBody(`${run}-${(sequence += 1)}`)
  return { ...request, method: "POST", path: INITIATE, body, headers: { ...request.headers, ...signedHeaders(credentials, "POST", INITIATE, body) } }
}

const result = await runAutocannon({ url: base + INITIATE, headers: {}, connections, durationSeconds, requests: [{ setupRequest }] })
console.log(`BENCH_JSON ${JSON.stringify(result)}`)
