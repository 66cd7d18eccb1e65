// `node scripts/bench/cpu-per-request.mjs [ROOT] [N] [site-info|verify]`: the CPU time one signed call
// costs the embedded kit of the build under ROOT (default: this tree; needs `npm run build`), tracing
// off, called in process through `payments.fetch`, N times after 2,000 to warm up: GET /api/v1/site-info,
// or GET /api/v1/verify-payment/{trx} of one pending sandbox payment. CPU time per request barely moves
// when other processes share the machine, unlike requests per second: it is how a change to the
// per-request path is measured against the build of the commit before it (two ROOTs, runs alternated).
// Bytes allocated per request are printed beside it (machine-independent): the growth of V8's used
// heap plus what every collection in between freed (v8.GCProfiler), over the measured calls. They
// include the load side's own fetch Request and Response objects, the same for every build.
import { createHmac } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { GCProfiler, getHeapStatistics } from "node:v8"

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", ".."))
const count = Number(process.argv[3] ?? 5000)
const route = process.argv[4] ?? "site-info"
if (route !== "site-info" && route !== "verify") throw new Error(`route must be site-info or verify, got ${route}`)
const { createMerchantPayments } = await import(join(root, "dist", "hosts", "embedding", "index.js"))
const dir = mkdtempSync(join(tmpdir(), "merchant-payments-cpu-"))
const payments = await createMerchantPayments({
  database: `sqlite:${join(dir, "payments.db")}`, masterKey: "66".repeat(32), baseUrl: "http://127.0.0.1", logging: false,
  settings: { rateLimitPerMinute: 1_000_000 }
})
const merchant = await payments.admin.merchants.create({ name: "Bench", status: "approved" })
await payments.admin.currencies.replace(merchant.id, ["USD"])
await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
await payments.admin.gateways.create({ plugin: "sandbox", name: "Bench card", currency_code: "USD", method: "card" })
const credentials = await payments.admin.credentials.issue(merchant.id, "sandbox")

/** One signed call of the merchant, answered 200 or thrown. */
const signed = async (method, path, body = "") => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac("sha256", credentials.client_secret).update(`${timestamp}.${method}.${path}.${body}`).digest("hex")
  const response = await payments.fetch(new Request(`http://127.0.0.1${path}`, {
    method,
    ...(body === "" ? {} : { body }),
    headers: {
      "content-type": "application/json", "x-environment": "sandbox", "x-merchant-key": credentials.merchant_key,
      "x-api-key": credentials.api_key, "x-timestamp": timestamp, "x-signature": signature
    }
  }))
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
  return text
}

const path = route === "site-info"
  ? "/api/v1/site-info"
  : `/api/v1/verify-payment/${JSON.parse(await signed("POST", "/api/v1/initiate-payment", JSON.stringify({
    payment_amount: 10, currency_code: "USD", ref_trx: `cpu-${Date.now()}`,
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  }))).info.trx_id}`
const call = () => signed("GET", path)
for (let i = 0; i < 2000; i++) await call()
const profiler = new GCProfiler()
profiler.start()
const heapBefore = getHeapStatistics().used_heap_size
const before = process.cpuUsage()
const started = performance.now()
for (let i = 0; i < count; i++) await call()
const used = process.cpuUsage(before)
const heapAfter = getHeapStatistics().used_heap_size
const collections = profiler.stop().statistics
const freed = collections.reduce((sum, gc) => sum + gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize, 0)
console.log(JSON.stringify({
  root, route, requests: count,
  cpuMicrosPerRequest: Number(((used.user + used.system) / count).toFixed(1)),
  wallMicrosPerRequest: Number((((performance.now() - started) * 1000) / count).toFixed(1)),
  bytesAllocatedPerRequest: Math.round((heapAfter - heapBefore + freed) / count),
  collectionsPerThousand: Number(((collections.length * 1000) / count).toFixed(2))
}))
await payments.close()
rmSync(dir, { recursive: true, force: true })
