// `npm run bench:tracing [-- --duration N --rounds N --baseline PATH]`: what traces cost. The standalone
// host of this tree with tracing off and with tracing on (OTLP/HTTP protobuf to a loopback sink that
// only counts bytes), and, with --baseline, another build's host (PATH to its dist/hosts/standalone/main.js,
// such as the commit before tracing) to show what "off" costs. Variants take turns round by round, each
// run on a fresh host, so a machine that gets busier midway weighs on all of them alike; the median of
// the rounds is printed. Needs a build (`npm run build`).
import { randomBytes } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { runLoad } from "./load.mjs"
import { freePort, killNow, startNode, stop, waitForOk } from "./processes.mjs"
import { createKitMerchant, prepareRoute, ROUTES } from "./routes.mjs"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
const { values: flags } = parseArgs({
  options: { duration: { type: "string", default: "10" }, rounds: { type: "string", default: "3" }, baseline: { type: "string" } }
})
const durationSeconds = Number(flags.duration)
const rounds = Number(flags.rounds)
const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`
const workDir = mkdtempSync(join(tmpdir(), "merchant-payments-tracing-cost-"))
const servers = []
process.once("exit", () => {
  servers.forEach(killNow)
  rmSync(workDir, { recursive: true, force: true })
})

let exportedBytes = 0
const sink = createServer((request, response) => {
  request.on("data", (chunk) => (exportedBytes += chunk.length))
  request.on("end", () => response.writeHead(200, { "content-type": "application/x-protobuf" }).end())
})
await new Promise((done) => sink.listen(0, "127.0.0.1", done))
const sinkUrl = `http://127.0.0.1:${sink.address().port}`

const thisHost = join(ROOT, "dist", "hosts", "standalone", "main.js")
const variants = [
  ...(flags.baseline !== undefined ? [{ name: "baseline build", main: resolve(flags.baseline), env: {} }] : []),
  { name: "tracing off", main: thisHost, env: {} },
  { name: "tracing on", main: thisHost, env: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl } }
]

const runOnce = async (variant, route, round) => {
  const dataDir = join(workDir, `${variants.indexOf(variant)}-${route}-${round}`)
  mkdirSync(dataDir, { recursive: true })
  const port = await freePort()
  const server = startNode(variant.name, [variant.main, "serve"], {
    ...process.env, ...variant.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, ADMIN_TOKEN, DEMO: "true",
    RATE_LIMIT_PER_MINUTE: "1000000", LOG_LEVEL: "warn", DATABASE_URL: "", MASTER_KEY: ""
  }, join(workDir, `${servers.length}.log`))
  servers.push(server)
  const base = `http://127.0.0.1:${port}`
  await waitForOk(server, `${base}/healthz`)
  const load = await prepareRoute(route, base, await createKitMerchant(base, ADMIN_TOKEN))
  const result = await runLoad({ base, connections: 50, warmupSeconds: 2, durationSeconds, ...load })
  await stop(server)
  return result.rps
}

const results = new Map()
for (let round = 0; round < rounds; round++) {
  for (const route of ROUTES) {
    for (const variant of variants) {
      const rps = await runOnce(variant, route, round)
      const key = `${route}\t${variant.name}`
      results.set(key, [...(results.get(key) ?? []), rps])
      console.log(`round ${round + 1}/${rounds} ${route} ${variant.name}: ${Math.round(rps)} req/s`)
    }
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
console.log("\nroute\tvariant\tmedian req/s\tof tracing off\truns")
for (const route of ROUTES) {
  const off = median(results.get(`${route}\ttracing off`))
  for (const variant of variants) {
    const runs = results.get(`${route}\t${variant.name}`)
    console.log(`${route}\t${variant.name}\t${Math.round(median(runs))}\t${(median(runs) / off).toFixed(2)}\t${runs.map(Math.round).join(" ")}`)
  }
}
console.log(`\nexported ${(exportedBytes / 1024 / 1024).toFixed(1)} MiB of spans`)
sink.close()
