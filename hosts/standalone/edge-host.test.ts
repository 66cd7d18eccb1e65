import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { rawExchange } from "../../conformance/http/raw-socket.js"
import { ConfigProblem, readHostConfig } from "../embedding/host-config.js"
import { startServer } from "./server.js"
import { signedCall } from "../../testing/hosts/demo-fixtures.js"

const hostWith = async (env: Record<string, string>) => {
  const lines: Array<string> = []
  const directory = mkdtempSync(join(tmpdir(), "mp-edge-"))
  const server = await startServer(readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: directory, ...env }), {
    logSink: (line) => lines.push(line)
  })
  return { server, lines }
}


describe("standalone host: header and request timeouts", () => {
  it("cuts a client that sends its headers and then stalls its body, within the configured time", async () => {
    const { server } = await hostWith({ DEMO: "false", HTTP_REQUEST_TIMEOUT_MS: "1000", HTTP_HEADERS_TIMEOUT_MS: "500" })
    try {
      const stalled = await rawExchange(server.url, {
        method: "POST",
        path: "/admin/v1/merchants",
        headers: { authorization: `Bearer ${server.adminToken}`, "content-type": "application/json", "content-length": "100" },
        body: Buffer.from('{"name":"stalled"}'),
        stallAfter: 10,
        timeoutMs: 10_000
      })
      expect(stalled.closed).toBe(true)
      expect([0, 408]).toContain(stalled.status)
      expect(stalled.elapsedMs).toBeGreaterThanOrEqual(900)
      expect(stalled.elapsedMs).toBeLessThan(3_000)
    } finally {
      await server.close()
    }
  })

  it("reads the timeouts from the environment, refusing nonsense", () => {
    expect(readHostConfig({}).http).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 })
    expect(readHostConfig({ HTTP_REQUEST_TIMEOUT_MS: "5000" }).http).toEqual({ headersTimeoutMs: 5_000, requestTimeoutMs: 5_000 })
    expect(() => readHostConfig({ HTTP_REQUEST_TIMEOUT_MS: "1000", HTTP_HEADERS_TIMEOUT_MS: "2000" })).toThrow(ConfigProblem)
    expect(() => readHostConfig({ HTTP_REQUEST_TIMEOUT_MS: "soon" })).toThrow(ConfigProblem)
  })
})

describe("standalone host: log settings", () => {
  it("reads LOG_FORMAT and LOG_LEVEL, refusing nonsense", () => {
    expect(readHostConfig({}).logging).toEqual({ format: "human", level: "info" })
    expect(readHostConfig({ LOG_FORMAT: "json", LOG_LEVEL: "WARN" }).logging).toEqual({ format: "json", level: "warn" })
    expect(() => readHostConfig({ LOG_LEVEL: "loud" })).toThrow(ConfigProblem)
    expect(() => readHostConfig({ LOG_FORMAT: "xml" })).toThrow(ConfigProblem)
  })
})

describe("standalone host: logs", () => {
  it("says where it listens, one line per request with method, path (no query values), status, duration and request id, and `stopped`", async () => {
    const { server, lines } = await hostWith({ DEMO: "true" })
    const demo = server.demo!
    let signature = ""
    try {
      const settings = await fetch(`${server.url}/admin/v1/settings?token=query-value-secret`, {
        headers: { authorization: `Bearer ${server.adminToken}`, "x-request-id": "edge-test-1" }
      })
      expect(settings.status).toBe(200)
      const siteInfo = await signedCall(server.url, demo, "GET", "/api/v1/site-info")
      signature = siteInfo.signature
      expect(siteInfo.status).toBe(200)
      const body = JSON.stringify({ payment_amount: 10, currency_code: "USD", ref_trx: "body-value-secret", customer_email: "buyer@shop.example" })
      expect((await signedCall(server.url, demo, "POST", "/api/v1/initiate-payment", { body })).status).toBe(422)
      expect((await fetch(`${server.url}/admin/v1/settings`, { headers: { authorization: "Bearer wrong-token-value" } })).status).toBe(401)
    } finally {
      await server.close()
    }
    const output = lines.join("\n")
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z INFO  listening on http:\/\/127\.0\.0\.1:\d+$/)
    expect(lines.at(-1)).toMatch(/^\S+ INFO  stopped$/)
    const requests = lines.filter((line) => / (GET|POST) \//.test(line))
    expect(requests).toHaveLength(4)
    expect(requests[0]).toMatch(/^\S+Z INFO  GET \/admin\/v1\/settings\?token 200 \d+ms req=edge-test-1$/)
    expect(requests[1]).toMatch(/^\S+Z INFO  GET \/api\/v1\/site-info 200 \d+ms req=[0-9a-f-]{36}$/)
    expect(requests[2]).toMatch(/^\S+Z INFO  POST \/api\/v1\/initiate-payment 422 \d+ms req=[0-9a-f-]{36}$/)
    expect(requests[3]).toMatch(/^\S+Z INFO  GET \/admin\/v1\/settings 401 \d+ms req=/)
    // Nothing a caller sent as a secret, and no body or query value, reaches the log.
    const secrets = [server.adminToken, demo.client_secret, demo.webhook_secret, demo.api_key, signature, "wrong-token-value", "query-value-secret", "body-value-secret", "buyer@shop.example"]
    for (const secret of secrets) expect(output).not.toContain(secret)
  })

  it("writes JSON lines with LOG_FORMAT=json", async () => {
    const { server, lines } = await hostWith({ DEMO: "false", LOG_FORMAT: "json" })
    try {
      await fetch(`${server.url}/healthz?probe=1`, { headers: { "x-request-id": "json-1" } })
    } finally {
      await server.close()
    }
    const entries = lines.map((line) => JSON.parse(line))
    expect(entries[0]).toMatchObject({ level: "INFO", message: expect.stringMatching(/^listening on /), event: "listening" })
    expect(entries.filter((entry) => entry.method !== undefined)).toEqual([{
      time: expect.stringMatching(/Z$/),
      level: "INFO",
      message: expect.stringMatching(/^GET \/healthz\?probe 200 \d+ms$/),
      method: "GET",
      path: "/healthz?probe",
      status: 200,
      duration_ms: expect.any(Number),
      request_id: "json-1"
    }])
    expect(entries.at(-1)).toMatchObject({ level: "INFO", message: "stopped" })
  })

  it("logs from LOG_LEVEL up: warn hides request lines, debug shows more", async () => {
    const quiet = await hostWith({ DEMO: "false", LOG_LEVEL: "warn" })
    await fetch(`${quiet.server.url}/healthz`)
    await quiet.server.close()
    expect(quiet.lines).toEqual([])
    const chatty = await hostWith({ DEMO: "false", LOG_LEVEL: "debug" })
    await fetch(`${chatty.server.url}/healthz`)
    await chatty.server.close()
    expect(chatty.lines.some((line) => / DEBUG /.test(line))).toBe(true)
    expect(chatty.lines.some((line) => / INFO  GET \/healthz 200 /.test(line))).toBe(true)
  })
})
