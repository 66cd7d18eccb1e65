import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { ensureBuilt } from "../testing/hosts/build.js"
import { isTestOnly } from "./dependency-rule.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const run = promisify(execFile)

/**
 * What importing the package, or running a kit, loads only when it is asked for. Each is matched
 * against the URL a module resolves to (node_modules may be a link: the pattern reads the package).
 */
const WATCHED = {
  kit: String.raw`/dist/hosts/kit-layer\.js$|/dist/adapters/http/app\.js$`,
  // The platform's Node server (and the ws, undici and worker code it brings): the kit serves Node itself.
  platformNode: String.raw`/node_modules/@effect/platform-node/`,
  pg: String.raw`/node_modules/(pg|@effect/sql-pg)/`,
  sqlite: String.raw`/node_modules/(better-sqlite3|@effect/sql-sqlite-node)/`,
  stripe: String.raw`/node_modules/stripe/`,
  sepa: String.raw`/node_modules/sepa/`,
  // Invoice PDFs: loaded on the first document rendered, never by serving or by the documents' routes being declared.
  pdfkit: String.raw`/node_modules/(pdfkit|fontkit)/`,
  // The SMTP client: loaded on the first mail sent, never by a kit that sends none.
  mail: String.raw`/node_modules/nodemailer/`,
  openapi: String.raw`/dist/adapters/http/openapi/(document|reference-page)\.js$|/node_modules/@effect/platform/dist/esm/OpenApiJsonSchema\.js$`,
  metrics: String.raw`/dist/adapters/metrics/prometheus-renderer\.js$|/node_modules/(@opentelemetry/(sdk-metrics|exporter-prometheus)|@effect/opentelemetry)/`
} as const
type Watched = keyof typeof WATCHED

// Every module resolution, appended at once (synchronously) to a file the process reads between steps.
const RECORD = `import { appendFileSync } from "node:fs"
let log
export function initialize(data) { log = data.log }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context)
  appendFileSync(log, resolved.url + "\\n")
  return resolved
}`

/** Imports the package in a fresh node, then starts a kit on `database`, serves, and asks for the on-demand routes. */
const loadsOf = async (database: string, scratch: string): Promise<Record<string, ReadonlyArray<Watched>>> => {
  const log = join(scratch, `resolved-${Date.now()}.log`)
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", `
    import { register } from "node:module"
    import { readFileSync, writeFileSync } from "node:fs"
    writeFileSync(${JSON.stringify(log)}, "")
    register("data:text/javascript," + encodeURIComponent(${JSON.stringify(RECORD)}), { data: { log: ${JSON.stringify(log)} } })
    const watched = Object.entries(${JSON.stringify(WATCHED)}).map(([name, source]) => [name, new RegExp(source)])
    const loaded = () => {
      const urls = readFileSync(${JSON.stringify(log)}, "utf8").split("\\n")
      return watched.filter(([, pattern]) => urls.some((url) => pattern.test(url))).map(([name]) => name)
    }
    const steps = {}
    const { createMerchantPayments } = await import(${JSON.stringify(join(root, "dist/hosts/embedding/index.js"))})
    steps.imported = loaded()
    const payments = await createMerchantPayments({
      database: ${JSON.stringify(database)}, masterKey: "44".repeat(32), baseUrl: "http://127.0.0.1", adminToken: "lazy-loading-token", logging: false
    }).catch(() => undefined)
    if (payments !== undefined) {
      await payments.fetch(new Request("http://127.0.0.1/api/v1/site-info"))
      steps.serving = loaded()
      const asked = ["/openapi.json", "/docs", "/metrics"].map((path) =>
        payments.fetch(new Request("http://127.0.0.1" + path, { headers: { authorization: "Bearer lazy-loading-token" } })).then((answer) => answer.status))
      steps.statuses = await Promise.all(asked)
      steps.asked = loaded()
      await payments.close()
    } else {
      steps.refused = loaded()
    }
    console.log(JSON.stringify(steps))
  `], { cwd: scratch })
  return JSON.parse(stdout.trim().split("\n").pop()!) as Record<string, ReadonlyArray<Watched>>
}

/** A port nothing listens on: a PostgreSQL store there is refused at once, after its driver loaded. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })

const EFFECT_PACKAGES = /^(effect|@effect\/(platform|platform-node|sql|sql-pg|sql-sqlite-node|opentelemetry|experimental))$/
const ANY_IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g

const productionFiles = (folder: string): ReadonlyArray<string> =>
  readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .map((file) => join(folder, file))
    .filter((file) => file.endsWith(".ts") && !isTestOnly(file) && statSync(join(root, file)).isFile())

describe("what the package loads only when asked", () => {
  it("no production module imports an Effect package's index, which loads every module of it", () => {
    const found = ["core", "adapters", "hosts", "client", "conformance"].flatMap(productionFiles).flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(ANY_IMPORT)].map((match) => match[1] ?? match[2]!)
        .filter((specifier) => EFFECT_PACKAGES.test(specifier)).map((specifier) => `${file}: ${specifier}`))
    expect(found).toEqual([])
  })

  it("importing it loads no kit, driver, Stripe client, OpenAPI generator or metrics SDK; a kit on SQLite loads the rest when asked, never the platform's Node server", async () => {
    await ensureBuilt()
    const scratch = mkdtempSync(join(tmpdir(), "mp-lazy-loading-"))
    try {
      const steps = await loadsOf(`sqlite:${join(scratch, "payments.db")}`, scratch)
      expect(steps.imported).toEqual([])
      // Serving: the kit and the driver asked for, nothing else.
      expect(steps.serving).toEqual(["kit", "sqlite"])
      // The recording sees a late load: asked for, the generator, the reference page and the metrics SDK arrive.
      expect(steps.statuses).toEqual([200, 200, 200])
      expect(steps.asked).toEqual(["kit", "sqlite", "openapi", "metrics"])
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }, 200_000)

  it("a kit on PostgreSQL loads pg, never better-sqlite3", async () => {
    await ensureBuilt()
    const scratch = mkdtempSync(join(tmpdir(), "mp-lazy-loading-"))
    try {
      const steps = await loadsOf(`postgres://shop:secret@127.0.0.1:${await closedPort()}/shop`, scratch)
      expect(steps.imported).toEqual([])
      expect(steps.refused).toEqual(["kit", "pg"])
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }, 200_000)
})
