import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { formWith, offeredCodes, openGateway, submit, expectHtml, getPage } from "../../conformance/http/checkout-html.js"
import type { Target } from "../../conformance/http/signing.js"
import { ensureBuilt } from "../../testing/hosts/build.js"
import { MAIN, ROOT } from "../../testing/hosts/child-hosts.js"
import { readAdminToken, readDemo, signedCall } from "../../testing/hosts/demo-fixtures.js"
import { exitWithin, npmStart, type Started } from "../../testing/hosts/npm-start.js"

/** A call that names its own request id, so its one log line can be found. */
const withId = (requestId: string, body?: unknown) => ({ headers: { "x-request-id": requestId }, ...(body === undefined ? {} : { body }) })

/** Log lines (human format: they begin with their ISO time), apart from the banner a person reads once. */
const logLines = (output: string) => output.split("\n").filter((line) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(line))

/**
 * Issue 10's "must show": a new user's first session, as a person at a terminal has it. `npm start`
 * on a fresh data folder, Ctrl-C to the process group, `npm start` again (no rebuild), a payment
 * paid on its checkout page whose success redirect names the order, a wrong method, a webhook target
 * that could never be reached, and a log with one line per request and no secret in it.
 */
describe("a new user's session", () => {
  let dataDir = ""
  let host: Started | undefined
  beforeAll(async () => {
    await ensureBuilt()
    dataDir = mkdtempSync(join(tmpdir(), "mp-new-user-"))
  }, 200_000)
  afterAll(async () => {
    if (host !== undefined && host.child.exitCode === null) {
      host.signalGroup("SIGTERM")
      await exitWithin(host, 20_000).catch(() => undefined)
    }
    rmSync(dataDir, { recursive: true, force: true })
  }, 30_000)

  it("start, Ctrl-C, start again, pay, and read the log", async () => {
    // First start: a fresh store, the demo merchant, the banner.
    const first = await npmStart({ DATA_DIR: dataDir })
    host = first
    const builtAt = statSync(join(ROOT, MAIN)).mtimeMs
    first.signalGroup("SIGINT")
    expect(await exitWithin(first, 30_000), first.stderr()).toEqual({ code: 0, signal: null })
    expect(logLines(first.stdout()).filter((line) => /\bstopped\b/.test(line))).toHaveLength(1)

    // Second start: the tree is unchanged, so nothing is rebuilt.
    const restartBegan = Date.now()
    const second = await npmStart({ DATA_DIR: dataDir })
    host = second
    const restartMs = Date.now() - restartBegan
    console.log(`new user's session: second npm start answered /healthz after ${restartMs} ms`)
    expect(statSync(join(ROOT, MAIN)).mtimeMs, "the second start rebuilt an unchanged tree").toBe(builtAt)

    const demo = readDemo(dataDir)
    const adminToken = readAdminToken(dataDir)
    const target: Target = { baseUrl: second.url, adminToken }
    const ids = { initiate: "nu-initiate", verify: "nu-verify", wrongMethod: "nu-wrong-method", loopback: "nu-loopback" }

    // A payment, paid on its checkout page: the customer comes back to the shop with the order named.
    const order = {
      payment_amount: 100, currency_code: "USD", ref_trx: "order-1001",
      success_redirect: "https://shop.example/thanks", cancel_redirect: "https://shop.example/cart",
      ipn_url: "https://shop.example/ipn"
    }
    const initiated = await signedCall(second.url, demo, "POST", "/api/v1/initiate-payment", withId(ids.initiate, order))
    expect(initiated.status, JSON.stringify(initiated.json)).toBe(200)
    const trxId: string = initiated.json.info.trx_id
    const page = expectHtml(await getPage(target, initiated.json.payment_url), 200)
    const sandbox = await openGateway(target, initiated.json.payment_url, offeredCodes(page)[0]!)
    const paid = await submit(target, formWith(sandbox.html, "pay"), sandbox.url)
    expect(paid.status).toBe(303)
    const back = new URL(paid.headers["location"]!)
    expect(back.origin + back.pathname).toBe("https://shop.example/thanks")
    expect(back.searchParams.get("trx_id")).toBe(trxId)
    expect(back.searchParams.get("ref_trx")).toBe("order-1001")
    const verified = await signedCall(second.url, demo, "GET", `/api/v1/verify-payment/${trxId}`, withId(ids.verify))
    expect(verified.json.status).toBe("success")

    // A wrong method on a known path is a 405 that says which methods it takes.
    const wrongMethod = await signedCall(second.url, demo, "DELETE", "/api/v1/site-info", withId(ids.wrongMethod))
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.headers.get("allow")).toMatch(/\bGET\b/)
    expect(wrongMethod.json).toMatchObject({ success: false, error_code: "METHOD_NOT_ALLOWED" })

    // A webhook target on this machine could never be delivered to: refused at once, on ipn_url.
    const loopback = await signedCall(second.url, demo, "POST", "/api/v1/initiate-payment",
      withId(ids.loopback, { ...order, ref_trx: "order-1002", ipn_url: "http://127.0.0.1:9/ipn" }))
    expect(loopback.status).toBe(422)
    expect(Object.keys(loopback.json.errors)).toEqual(["ipn_url"])

    // The log: one line per request, found by its request id, and not one secret in any line.
    second.signalGroup("SIGINT")
    expect(await exitWithin(second, 30_000), second.stderr()).toEqual({ code: 0, signal: null })
    const lines = logLines(second.stdout())
    const expectOneLine = (id: string, pattern: RegExp) => {
      const found = lines.filter((line) => line.includes(`req=${id}`))
      expect(found, `log lines for ${id}:\n${lines.join("\n")}`).toHaveLength(1)
      expect(found[0]).toMatch(pattern)
    }
    expectOneLine(ids.initiate, /POST \/api\/v1\/initiate-payment 200 \d+(\.\d+)?ms/)
    expectOneLine(ids.verify, new RegExp(`GET /api/v1/verify-payment/${trxId} 200 \\d+(\\.\\d+)?ms`))
    expectOneLine(ids.wrongMethod, /DELETE \/api\/v1\/site-info 405 /)
    expectOneLine(ids.loopback, /POST \/api\/v1\/initiate-payment 422 /)
    expect(lines.filter((line) => /\bGET \/checkout\//.test(line)).length, lines.join("\n")).toBeGreaterThanOrEqual(1)
    const secrets = [demo.client_secret, demo.webhook_secret, demo.api_key, adminToken, initiated.signature, verified.signature]
    for (const secret of secrets) {
      expect(lines.filter((line) => line.includes(secret)), "a secret in the log").toEqual([])
    }
  }, 240_000)
})
