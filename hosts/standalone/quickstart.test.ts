import { execFile, spawnSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { banner } from "./banner.js"
import { readHostConfig } from "./host-config.js"
import { resolveSecrets } from "./local-secrets.js"
import { startServer } from "./server.js"

const hasTools = ["bash", "curl", "openssl"].every((tool) => spawnSync("which", [tool]).status === 0)

const quickstart = () => {
  const directory = mkdtempSync(join(tmpdir(), "mp-quickstart-"))
  return readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: directory })
}

describe("standalone quickstart", () => {
  it.skipIf(!hasTools)("the printed signed request answers 200 (needs bash, curl and openssl)", async () => {
    const config = quickstart()
    const server = await startServer(config)
    try {
      expect(server.demo).toBeDefined()
      const text = banner(server.url, resolveSecrets(config), server.demo)
      const snippet = text.split("try a signed request (bash, curl, openssl):\n")[1]!
      // Asynchronously: the server answering curl runs in this very process.
      const status = await new Promise<string>((resolve, reject) =>
        execFile("bash", ["-c", `${snippet} -o /dev/null -w '%{http_code}'`], (error, stdout) => (error ? reject(error) : resolve(stdout))))
      expect(status).toBe("200")
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
        headers: { authorization: `Bearer ${server.adminToken}`, "content-length": Buffer.byteLength(body) }
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
