import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { packPackage } from "./testing/pack-package.js"

const run = promisify(execFile)
const scratch = mkdtempSync(join(tmpdir(), "mp-lean-install-"))
const app = join(scratch, "app")
let install = { output: "", sizeKb: 0 }

/**
 * The packed tarball installed into a scratch app from the registry, as an embedding platform
 * installs it, on this machine's Node (20 in CI): no engine warning, no API reference renderer
 * (an optional peer), and a kit that starts without the Stripe client, which loads only when a
 * Stripe gateway is used.
 */
beforeAll(async () => {
  const tarball = await packPackage(scratch)
  await run("mkdir", ["-p", app])
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch-app", type: "module", private: true }))
  const { stdout, stderr } = await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball], {
    cwd: app,
    maxBuffer: 16 * 1024 * 1024
  })
  const { stdout: du } = await run("du", ["-sk", join(app, "node_modules")])
  install = { output: `${stdout}\n${stderr}`, sizeKb: Number(du.split("\t")[0]) }
}, 600_000)

afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe(`installing the packed package on Node ${process.versions.node}`, () => {
  it("warns of no engine and brings no API reference renderer", () => {
    expect(install.output).not.toContain("EBADENGINE")
    expect(existsSync(join(app, "node_modules", "merchant-payments", "package.json"))).toBe(true)
    expect(existsSync(join(app, "node_modules", "@scalar"))).toBe(false)
    expect(existsSync(join(app, "node_modules", "vue"))).toBe(false)
    // Measured at 202 MB with billing's documents and mail (docs/performance.md); far from the 498 MB
    // the renderer used to bring. pdfkit and nodemailer are loaded on first use, never at start.
    expect(install.sizeKb).toBeLessThan(225 * 1024)
  })

  it("starts without the Stripe client, and /docs is a plain page linking the OpenAPI document", async () => {
    // Gone from the disk: a kit that imported it at start-up would fail here.
    rmSync(join(app, "node_modules", "stripe"), { recursive: true, force: true })
    writeFileSync(join(app, "app.mjs"), `
import { createServer } from "node:http"
import { createMerchantPayments } from "merchant-payments"
const payments = await createMerchantPayments({
  database: "sqlite:./data/payments.db", masterKey: "55".repeat(32), baseUrl: "http://127.0.0.1", basePath: "/payments", logging: false
})
const server = createServer(payments.handler).listen(0, "127.0.0.1", async () => {
  const origin = "http://127.0.0.1:" + server.address().port + "/payments"
  const docs = await fetch(origin + "/docs")
  const html = await docs.text()
  const openapi = await fetch(origin + "/openapi.json")
  const script = await fetch(origin + "/docs/scalar.js")
  console.log(JSON.stringify({ docs: docs.status, html, openapi: openapi.status, title: (await openapi.json()).info.title, script: script.status }))
  server.close()
  await payments.close()
})
`)
    const { stdout } = await run(process.execPath, ["app.mjs"], { cwd: app })
    const answer = JSON.parse(stdout.trim().split("\n").pop()!) as { docs: number; html: string; openapi: number; title: string; script: number }
    expect(answer.docs).toBe(200)
    expect(answer.html).toContain(`<a href="openapi.json">`)
    expect(answer.html).not.toContain("<script")
    expect(answer.openapi).toBe(200)
    expect(answer.title).toMatch(/\S/)
    expect(answer.script).toBe(404)
  }, 60_000)
})
