import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawn } from "node:child_process"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { signRequest } from "../../core/signing/request-signature.js"
import { ensureBuilt } from "../../testing/hosts/build.js"
import { baseEnv, freePort, ROOT, waitFor } from "../../testing/hosts/child-hosts.js"

/** The embedded example as the README runs it: an Express app with the kit at /payments. */
describe("hosts/embedded: an Express app that mounts the kit at /payments", () => {
  let scratch = ""
  let origin = ""
  let output = ""
  let child: ReturnType<typeof spawn> | undefined
  beforeAll(async () => {
    await ensureBuilt()
    scratch = mkdtempSync(join(tmpdir(), "mp-embedded-app-"))
    const port = await freePort()
    origin = `http://127.0.0.1:${port}`
    child = spawn(process.execPath, ["hosts/embedded/server.mjs"], {
      cwd: ROOT,
      env: { ...baseEnv(), PORT: String(port), BASE_URL: origin, DATA_DIR: scratch },
      stdio: ["ignore", "pipe", "pipe"]
    })
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")))
    await waitFor("the embedded shop to print its credentials", 30_000, () => (output.includes("sandbox credentials") ? true : undefined))
  }, 200_000)
  afterAll(() => {
    child?.kill("SIGTERM")
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  })

  it("keeps the app's own pages, session cookie and JSON API, and serves the kit under /payments", async () => {
    const home = await fetch(`${origin}/`)
    expect(home.headers.get("set-cookie")).toMatch(/^shop_session=[0-9a-f]{24}; Path=\/; HttpOnly; SameSite=Lax$/)
    expect(await home.text()).toContain(`Payments live under ${origin}/payments`)
    const order = await fetch(`${origin}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: "{\"sku\":\"book\"}" })
    expect([order.status, await order.json()]).toEqual([201, { order: { sku: "book" }, payments: `${origin}/payments` }])
    expect((await fetch(`${origin}/payments/healthz`)).status).toBe(200)
  })

  it("takes a signed payment for the shop it onboarded, offering its own plugin's gateway beside the sandbox", async () => {
    const credentials = JSON.parse(/sandbox credentials \(shown once\): (\{.*\})/.exec(output)![1]!) as Record<string, string>
    const path = "/payments/api/v1/initiate-payment"
    const body = JSON.stringify({
      payment_amount: "20.00", currency_code: "USD", ref_trx: "embedded-app-1",
      success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/c", ipn_url: "https://shop.example/ipn"
    })
    const timestamp = String(Math.floor(Date.now() / 1000))
    const initiated = await fetch(`${origin}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-environment": "sandbox",
        "x-merchant-key": credentials["merchant_key"]!,
        "x-api-key": credentials["api_key"]!,
        "x-timestamp": timestamp,
        "x-signature": signRequest(credentials["client_secret"]!, { timestamp, method: "POST", pathWithQuery: path, rawBody: body })
      },
      body
    })
    const json = await initiated.json() as { payment_url: string }
    expect(initiated.status, JSON.stringify(json)).toBe(200)
    const page = await (await fetch(json.payment_url)).text()
    expect(page).toContain("Acme Pay")
    expect(page).toContain("Test card")
  })
})
