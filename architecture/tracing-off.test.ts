import { execFile } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
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
 * What only tracing needs: the trace SDK and exporters never, the exporting modules only once
 * configured. `@effect/opentelemetry/Resource` is not among them: the metrics producer (on by
 * default) stands on it, and it loads no trace code.
 */
const NEVER = /^@opentelemetry\/(sdk-trace|exporter-trace|sdk-node)/
const ONLY_DYNAMIC = /^@effect\/opentelemetry\/(OtlpTracer|OtlpSerialization|Tracer)$|^@effect\/opentelemetry$/
const STATIC_VALUE_IMPORT = /(?:^|[\s;])import\s+(?!type\s)(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/g
const ANY_IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g

const productionFiles = (folder: string): ReadonlyArray<string> =>
  readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .map((file) => join(folder, file))
    .filter((file) => file.endsWith(".ts") && !isTestOnly(file) && statSync(join(root, file)).isFile())

const production = ["core", "adapters", "hosts", "client"].flatMap(productionFiles)

describe("tracing off costs an embedding app nothing it did not install", () => {
  it("no production module imports the trace SDK or an exporter package", () => {
    const found = production.flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(ANY_IMPORT)].map((match) => match[1] ?? match[2]!).filter((specifier) => NEVER.test(specifier)).map((specifier) => `${file}: ${specifier}`))
    expect(found).toEqual([])
  })

  it("the exporting modules are imported only with import(), once tracing is configured", () => {
    const found = production.flatMap((file) =>
      [...readFileSync(join(root, file), "utf8").matchAll(STATIC_VALUE_IMPORT)].map((match) => match[1]!).filter((specifier) => ONLY_DYNAMIC.test(specifier)).map((specifier) => `${file}: ${specifier}`))
    expect(found).toEqual([])
  })

  it("a kit started and serving without tracing loads none of them (checked at module resolution)", async () => {
    await ensureBuilt()
    const scratch = mkdtempSync(join(tmpdir(), "mp-tracing-off-"))
    const refuse = `export async function resolve(specifier, context, next) {
      if (${NEVER}.test(specifier) || ${ONLY_DYNAMIC}.test(specifier)) throw new Error("loaded with tracing off: " + specifier)
      return next(specifier, context)
    }`
    const serveOnce = (tracing: string) =>
      run(process.execPath, ["--input-type=module", "-e", `
        import { register } from "node:module"
        register("data:text/javascript," + encodeURIComponent(${JSON.stringify(refuse)}))
        const { createMerchantPayments } = await import(${JSON.stringify(join(root, "dist/hosts/embedding/index.js"))})
        const payments = await createMerchantPayments({
          database: "sqlite:" + ${JSON.stringify(join(scratch, "payments.db"))}, masterKey: "44".repeat(32), baseUrl: "http://127.0.0.1", logging: false${tracing}
        })
        const answer = await payments.fetch(new Request("http://127.0.0.1/api/v1/site-info"))
        await payments.close()
        console.log("served " + answer.status)
      `], { cwd: scratch }).then(({ stdout }) => stdout.trim(), (error: { readonly stderr: string }) => error.stderr)
    try {
      expect(await serveOnce("")).toBe("served 401")
      // The same check catches the exporter when tracing is on: the hook is not vacuous.
      expect(await serveOnce(`, tracing: { endpoint: "http://127.0.0.1:9/v1/traces" }`)).toContain("loaded with tracing off: @effect/opentelemetry/OtlpTracer")
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  }, 200_000)
})
