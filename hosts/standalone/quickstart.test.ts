import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { banner, demoCommands } from "./banner.js"
import { readHostConfig } from "../embedding/host-config.js"
import { resolveSecrets } from "../embedding/local-secrets.js"
import { ROOT } from "../../testing/hosts/child-hosts.js"
import { signedCall } from "../../testing/hosts/demo-fixtures.js"
import { startServer } from "./server.js"

const hasTools = ["bash", "curl", "openssl"].every((tool) => spawnSync("which", [tool]).status === 0)

const quickstartEnv = () => ({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: mkdtempSync(join(tmpdir(), "mp-quickstart-")) })
const quickstart = () => readHostConfig(quickstartEnv())

/** Runs a bash script asynchronously (the server answering it may run in this very process). */
const bash = (script: string) =>
  new Promise<string>((resolve, reject) =>
    execFile("bash", ["-c", script], (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)))
  )

/** The README's "A signed request" example, exactly as written there. */
const readmeSignedRequest = () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("## A signed request"))
  const block = /```sh\n([\s\S]*?)```/.exec(section)
  if (block === null) throw new Error("no sh block under README's \"A signed request\"")
  return block[1]!
}

describe("standalone quickstart", () => {
  it.skipIf(!hasTools)("the printed requests work: site-info, then a payment paid in the sandbox and verified (needs bash, curl, openssl)", async () => {
    const server = await startServer(quickstart())
    try {
      const commands = demoCommands(server.url, server.demo!)
      expect(await bash(`${commands.siteInfo} -o /dev/null -w '%{http_code}'`)).toBe("200")
      const session = JSON.parse(await bash(commands.initiate))
      expect(session.payment_url).toMatch(/\/checkout\//)
      const trx: string = session.info.trx_id
      const pending = JSON.parse(await bash(`TRX=${trx}\n${commands.verify()}`))
      expect(pending.status).toBe("pending")
      // Pay as the sandbox would (the hosted page itself is driven by the browser test).
      const demo = server.demo!
      const paid = await signedCall(server.url, demo, "POST", `/api/v1/sandbox/payments/${trx}/simulate`, { body: { outcome: "success" } })
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

  it("shows the admin token only when this start generated it, never one from ADMIN_TOKEN", () => {
    const fromEnvironment = resolveSecrets(readHostConfig({ ...quickstartEnv(), ADMIN_TOKEN: "adm_from_the_environment_0123456789", NODE_ENV: "production" }))
    expect(banner("http://localhost:8080", fromEnvironment, undefined)).not.toContain("adm_from_the_environment_0123456789")

    const config = quickstart()
    const first = resolveSecrets(config)
    expect(first.adminTokenSource).toBe("generated")
    expect(banner(config.baseUrl, first, undefined)).toContain(first.adminToken)
    expect(banner(config.baseUrl, first, undefined)).toContain(`merchant dashboard: ${config.baseUrl}/dashboard`)
    const later = resolveSecrets(config)
    expect(later.adminToken).toBe(first.adminToken)
    const laterBanner = banner(config.baseUrl, later, undefined)
    expect(laterBanner).not.toContain(first.adminToken)
    expect(laterBanner).toContain(join(config.dataDir, "admin.token"))
  })

  it.skipIf(!hasTools)("prints export lines that set the demo credentials, after which the README's signed request runs as pasted", async () => {
    const config = quickstart()
    const server = await startServer(config)
    try {
      const demo = server.demo!
      const text = banner(server.url, resolveSecrets(config), demo)
      expect(text).toContain(`merchant id:    ${demo.merchant_id}  (dashboard users: POST ${server.url}/admin/v1/merchants/${demo.merchant_id}/users)`)
      expect(text).toMatch(/client secret:[\s\S]*signs your requests; verifies the refund events/)
      expect(text).toMatch(/webhook secret:[\s\S]*verifies the payment events/)
      // The lines as printed, indent and all, as a person selects and pastes them.
      const exports = text.split("\n").filter((line) => line.trimStart().startsWith("export ")).join("\n")
      const set = await bash(`${exports}\nbash -c 'printf "%s\\n" "$PAYMENTS_URL" "$PAYMENTS_ENVIRONMENT" "$MERCHANT_KEY" "$API_KEY" "$CLIENT_SECRET" "$WEBHOOK_SECRET"'`)
      expect(set.split("\n").slice(0, 6)).toEqual([server.url, "sandbox", demo.merchant_key, demo.api_key, demo.client_secret, demo.webhook_secret])

      // As pasted, on whatever port this host took: the export lines say where it answers.
      expect(await bash(`${exports}\n${readmeSignedRequest()}`)).toMatch(/^200 \{/)
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
