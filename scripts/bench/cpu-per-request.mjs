// `node scripts/bench/cpu-per-request.mjs [ROOT] [N]`: the CPU time one signed GET /api/v1/site-info costs
// the embedded kit of the build under ROOT (default: this tree; needs `npm run build`), tracing off,
// called in process through `payments.fetch`, N times after 2,000 to warm up. CPU time per request
// barely moves when other processes share the machine, unlike requests per second: it is how
// "tracing off costs nothing" is checked against the build of the commit before tracing.
import { createHmac } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", ".."))
const count = Number(process.argv[3] ?? 5000)
const { createMerchantPayments } = await import(join(root, "dist", "hosts", "embedding", "index.js"))
const dir = mkdtempSync(join(tmpdir(), "merchant-payments-cpu-"))
const payments = await createMerchantPayments({
  database: `sqlite:${join(dir, "payments.db")}`, masterKey: "66".repeat(32), baseUrl: "http://127.0.0.1", logging: false,
  settings: { rateLimitPerMinute: 1_000_000 }
})
const merchant = await payments.admin.merchants.create({ name: "Bench", status: "approved" })
const credentials = await payments.admin.credentials.issue(merchant.id, "sandbox")
const call = async () => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac("sha256", credentials.client_secret).update(`${timestamp}.GET./api/v1/site-info.`).digest("hex")
  const response = await payments.fetch(new Request("http://127.0.0.1/api/v1/site-info", {
    headers: {
      "x-environment": "sandbox", "x-merchant-key": credentials.merchant_key, "x-api-key": credentials.api_key,
      "x-timestamp": timestamp, "x-signature": signature
    }
  }))
  if (response.status !== 200) throw new Error(`site-info answered ${response.status}: ${await response.text()}`)
  await response.arrayBuffer()
}
for (let i = 0; i < 2000; i++) await call()
const before = process.cpuUsage()
const started = performance.now()
for (let i = 0; i < count; i++) await call()
const used = process.cpuUsage(before)
console.log(JSON.stringify({
  root, requests: count,
  cpuMicrosPerRequest: Number(((used.user + used.system) / count).toFixed(1)),
  wallMicrosPerRequest: Number((((performance.now() - started) * 1000) / count).toFixed(1))
}))
await payments.close()
rmSync(dir, { recursive: true, force: true })
