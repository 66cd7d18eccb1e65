import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { signRequest } from "../../core/signing/request-signature.js"
import { demoCommands } from "./banner.js"
import { readHostConfig } from "./host-config.js"
import { startServer } from "./server.js"

const hasTools = ["bash", "curl", "openssl"].every((tool) => spawnSync("which", [tool]).status === 0)

const quickstart = () => {
  const directory = mkdtempSync(join(tmpdir(), "mp-quickstart-"))
  return readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: directory })
}

describe("standalone quickstart", () => {
  it.skipIf(!hasTools)("the printed requests work: site-info, then a payment paid in the sandbox and verified (needs bash, curl, openssl)", async () => {
    const server = await startServer(quickstart())
    try {
      const commands = demoCommands(server.url, server.demo!)
      // Asynchronously: the server answering curl runs in this very process.
      const bash = (script: string) =>
        new Promise<string>((resolve, reject) => execFile("bash", ["-c", script], (error, stdout) => (error ? reject(error) : resolve(stdout))))
      expect(await bash(`${commands.siteInfo} -o /dev/null -w '%{http_code}'`)).toBe("200")
      const session = JSON.parse(await bash(commands.initiate))
      expect(session.payment_url).toMatch(/\/checkout\//)
      const trx: string = session.info.trx_id
      const pending = JSON.parse(await bash(`TRX=${trx}\n${commands.verify()}`))
      expect(pending.status).toBe("pending")
      // Pay as the sandbox would (the hosted page itself is driven by the browser test).
      const demo = server.demo!
      const path = `/api/v1/sandbox/payments/${trx}/simulate`
      const body = JSON.stringify({ outcome: "success" })
      const timestamp = String(Math.floor(Date.now() / 1000))
      const paid = await fetch(server.url + path, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-environment": "sandbox",
          "x-merchant-key": demo.merchant_key,
          "x-api-key": demo.api_key,
          "x-timestamp": timestamp,
          "x-signature": signRequest(demo.client_secret, { timestamp, method: "POST", pathWithQuery: path, rawBody: body })
        }
      })
      expect(paid.status).toBe(200)
      // The printed verify then shows success with the demo's exact fee (2.9 % + 0.30) and net.
      const verified = await bash(`TRX=${trx}\n${commands.verify()}`)
      expect(JSON.parse(verified).status).toBe("success")
      expect(verified).toContain('"fee":3.2,')
      expect(verified).toContain('"net_amount":96.8,')
    } finally {
      await server.close()
    }
  })

  it("keeps its secrets and demo merchant across restarts", async () => {
    const config = quickstart()
    const first = await startServer(config)
    await first.close()
    const second = await startServer(config)
    await second.close()
    expect(second.adminToken).toBe(first.adminToken)
    expect(second.demo).toEqual(first.demo)
  })

  it("lets a request in flight finish when it shuts down, then stops listening", async () => {
    const server = await startServer(quickstart())
    const url = new URL(server.url)
    const body = JSON.stringify({ name: "In flight" })
    const answered = new Promise<number>((resolve, reject) => {
      const pending = request({
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: "/admin/v1/merchants",
        headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
      }, (response) => {
        response.resume()
        response.on("end", () => resolve(response.statusCode ?? 0))
      })
      pending.on("error", reject)
      // Half the body now, the rest after shutdown has begun.
      pending.write(body.slice(0, 5))
      setTimeout(() => pending.end(body.slice(5)), 300)
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const closed = server.close()
    expect(await answered).toBe(201)
    await closed
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow()
  })
})
