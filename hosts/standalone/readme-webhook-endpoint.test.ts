import { execFile } from "node:child_process"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { resolveSecrets } from "../embedding/local-secrets.js"
import { ROOT } from "../../testing/hosts/child-hosts.js"
import { signedCall } from "../../testing/hosts/demo-fixtures.js"
import { banner } from "./banner.js"
import { startServer } from "./server.js"

/** The README's "Webhook endpoints" example, exactly as written there. */
const readmeExample = () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8")
  const section = readme.slice(readme.indexOf("## Webhook endpoints"))
  const block = /```sh\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf("\n## ", 1)))
  if (block === null) throw new Error("no sh block under README's \"Webhook endpoints\"")
  return block[1]!
}

const bash = (script: string, env: NodeJS.ProcessEnv) =>
  new Promise<string>((resolve, reject) =>
    execFile("bash", ["-c", script], { env }, (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout))))

describe("README: webhook endpoints", () => {
  it("the example, pasted after the export lines on a host that allows local receivers, adds the endpoint it says", async () => {
    const config = readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: mkdtempSync(join(tmpdir(), "mp-readme-endpoints-")), WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" })
    const server = await startServer(config)
    try {
      const demo = server.demo!
      const exports = banner(server.url, resolveSecrets(config), demo).split("\n").filter((line) => line.trimStart().startsWith("export ")).join("\n")
      const { PORT: _port, ...env } = process.env
      const printed = await bash(`${exports}\n${readmeExample()}`, env)
      expect(printed).toMatch(/^201 \{/)
      expect(printed).toContain("url: 'http://localhost:3000/ipn'")
      const listed = await signedCall(server.url, demo, "GET", "/api/v1/webhook-endpoints")
      expect(listed.status).toBe(200)
      expect(listed.json.data).toEqual([expect.objectContaining({ url: "http://localhost:3000/ipn", events: ["payout.*", "payment.completed"], status: "enabled" })])
    } finally {
      await server.close()
    }
  }, 60_000)
})
