import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { ConfigProblem, readHostConfig } from "../embedding/host-config.js"
import { startServer } from "./server.js"

describe("standalone host: scheduler and clock settings", () => {
  it("reads SCHEDULER, SCHEDULER_BATCH_SIZE and CLOCK_START, refusing nonsense", () => {
    expect(readHostConfig({}).scheduler).toEqual({ enabled: true, batchSize: 100 })
    expect(readHostConfig({ SCHEDULER: "off", SCHEDULER_BATCH_SIZE: "250" }).scheduler).toEqual({ enabled: false, batchSize: 250 })
    expect(() => readHostConfig({ SCHEDULER: "sometimes" })).toThrow(ConfigProblem)
    expect(() => readHostConfig({ SCHEDULER_BATCH_SIZE: "0" })).toThrow(ConfigProblem)
    expect(readHostConfig({ CLOCK: "manual", CLOCK_START: "2028-01-31T09:30:00Z" }).clockStartMillis).toBe(Date.UTC(2028, 0, 31, 9, 30))
    expect(() => readHostConfig({ CLOCK_START: "2028-01-31T09:30:00Z" })).toThrow(/only read with CLOCK=manual/)
    expect(() => readHostConfig({ CLOCK: "manual", CLOCK_START: "31/01/2028" })).toThrow(ConfigProblem)
  })

  it("a manual clock starts at CLOCK_START and a tick runs on demand with the loop off", async () => {
    const directory = mkdtempSync(join(tmpdir(), "mp-scheduler-"))
    const server = await startServer(readHostConfig({
      PORT: "0", HOST: "127.0.0.1", DATA_DIR: directory, DEMO: "false", CLOCK: "manual", CLOCK_START: "2028-01-31T09:30:00Z", SCHEDULER: "off", LOG_LEVEL: "warn"
    }), { logSink: () => {} })
    try {
      const auth = { authorization: `Bearer ${server.adminToken}` }
      const clock = await fetch(`${server.url}/admin/v1/clock`, { headers: auth })
      expect(await clock.json()).toEqual({ now: "2028-01-31T09:30:00.000000Z" })
      const run = await fetch(`${server.url}/admin/v1/scheduler/run`, { method: "POST", headers: auth })
      expect(run.status).toBe(200)
      expect(await run.json()).toEqual({ data: { processed: 0, started: 0, past_due: 0, cancelled: 0, unchanged: 0, failed: 0 } })
      const anonymous = await fetch(`${server.url}/admin/v1/scheduler/run`, { method: "POST" })
      expect(anonymous.status).toBe(401)
    } finally {
      await server.close()
    }
  })
})
