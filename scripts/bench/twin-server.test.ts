import { type ChildProcess, spawn } from "node:child_process"
import { createHmac } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// The hand-written twin `npm run bench` measures the kit against must do the spec's signature check
// (section 5), or its rows would flatter it: a signed request passes, a wrong, stale or tampered
// one does not, and the payment an initiate commits is the one verify reads.
const script = join(dirname(fileURLToPath(import.meta.url)), "twin-server.mjs")
const dir = mkdtempSync(join(tmpdir(), "mp-twin-"))
const credentials = { merchantKey: "test_mk_twin", apiKey: "test_ak_twin", secret: "cs_twin_secret" }
let twin: ChildProcess
let base = ""

const signed = (method: string, path: string, body = "", overrides: Record<string, string> = {}) => {
  const timestamp = overrides["X-Timestamp"] ?? String(Math.floor(Date.now() / 1000))
  const hex = createHmac("sha256", credentials.secret).update(`${timestamp}.${method}.${path}.${body}`).digest("hex")
  const headers = {
    "X-Environment": "sandbox", "X-Merchant-Key": credentials.merchantKey, "X-API-Key": credentials.apiKey,
    "X-Timestamp": timestamp, "X-Signature": `sha256=${hex}`, "Content-Type": "application/json", ...overrides
  }
  return { method, headers, ...(body === "" ? {} : { body }) }
}
const call = async (path: string, init: RequestInit) => {
  const response = await fetch(base + path, init)
  return { status: response.status, body: await response.json() as Record<string, any> }
}
const initiateBody = (refTrx: string) => JSON.stringify({
  payment_amount: 100, currency_code: "USD", ref_trx: refTrx, success_redirect: "https://merchant.example/ok",
  cancel_redirect: "https://merchant.example/cancel", ipn_url: "https://merchant.example/ipn"
})
const INITIATE = "/api/v1/initiate-payment"

beforeAll(async () => {
  twin = spawn(process.execPath, [script], {
    env: {
      ...process.env, PORT: "0", HOST: "127.0.0.1", BASE_URL: "", TWIN_DB: join(dir, "twin.db"),
      TWIN_MERCHANT_KEY: credentials.merchantKey, TWIN_API_KEY: credentials.apiKey, TWIN_CLIENT_SECRET: credentials.secret
    },
    stdio: ["ignore", "pipe", "inherit"]
  })
  const port = await new Promise<string>((resolve, reject) => {
    let out = ""
    twin.stdout!.on("data", (chunk) => {
      out += chunk
      const match = /TWIN_LISTENING (\d+)/.exec(out)
      if (match) resolve(match[1]!)
    })
    twin.once("exit", (code) => reject(new Error(`twin exited with ${code} before listening`)))
  })
  base = `http://127.0.0.1:${port}`
})

afterAll(async () => {
  if (twin.exitCode === null) {
    const exited = new Promise((resolve) => twin.once("exit", resolve))
    twin.kill("SIGTERM")
    await exited
  }
  rmSync(dir, { recursive: true, force: true })
})

describe("the bench's hand-written twin", () => {
  it("answers a signed site-info (prefixed or bare hex signature) with the site's JSON", async () => {
    const prefixed = await call("/api/v1/site-info", signed("GET", "/api/v1/site-info"))
    expect(prefixed).toMatchObject({ status: 200, body: { site_name: "Merchant Payments", status: "active", site_url: base } })
    const plain = signed("GET", "/api/v1/site-info")
    const bare = { ...plain, headers: { ...plain.headers, "X-Signature": plain.headers["X-Signature"].slice("sha256=".length) } }
    expect((await call("/api/v1/site-info", bare)).status).toBe(200)
  })

  it("refuses a wrong signature, a stale timestamp, a wrong API key and a wrong environment with 401", async () => {
    const cases = [
      signed("GET", "/api/v1/site-info", "", { "X-Signature": `sha256=${"0".repeat(64)}` }),
      signed("GET", "/api/v1/site-info", "", { "X-Timestamp": String(Math.floor(Date.now() / 1000) - 301) }),
      signed("GET", "/api/v1/site-info", "", { "X-API-Key": "test_ak_other" }),
      signed("GET", "/api/v1/site-info", "", { "X-Environment": "production" }),
      signed("GET", "/api/v1/site-info?page=2")
    ]
    for (const init of cases) {
      expect(await call("/api/v1/site-info", init)).toMatchObject({ status: 401, body: { success: false, error_code: "INVALID_CREDENTIALS" } })
    }
  })

  it("commits an initiate that verify then reads, refuses its reference twice and a tampered body", async () => {
    const body = initiateBody("twin-order-1")
    const created = await call(INITIATE, signed("POST", INITIATE, body))
    expect(created).toMatchObject({ status: 200, body: { info: { ref_trx: "twin-order-1", amount: 100, currency_code: "USD", is_sandbox: true } } })
    const path = `/api/v1/verify-payment/${created.body["info"].trx_id}`
    expect(await call(path, signed("GET", path))).toMatchObject({
      status: 200, body: { status: "pending", trx_id: created.body["info"].trx_id, amount: 100, currency: "USD" }
    })
    expect((await call(INITIATE, signed("POST", INITIATE, body))).body).toMatchObject({ error_code: "DUPLICATE_REFERENCE" })
    const tampered = { ...signed("POST", INITIATE, initiateBody("twin-order-2")), body: initiateBody("twin-order-3") }
    expect((await call(INITIATE, tampered)).status).toBe(401)
  })
})
