import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe } from "vitest"
import { readHostConfig } from "../../hosts/embedding/host-config.js"
import { startServer, type RunningServer } from "../../hosts/standalone/server.js"
import { expiryCases } from "./expiry-cases.js"
import { httpConformance, type Target } from "./suite.js"

// The standalone host in this process, on a SQLite file in a fresh directory (master key and admin
// token are generated beside it), listening on a free port. Business time is manual (CLOCK=manual),
// so the expiry cases can move it past the checkout lifetime instead of waiting an hour.
const directory = mkdtempSync(join(tmpdir(), "mp-http-sqlite-"))
// A second host on real time, for the one case that differs: the admin clock must not exist there.
const realClockDirectory = mkdtempSync(join(tmpdir(), "mp-http-sqlite-real-"))
let server: RunningServer | undefined
let realClockServer: RunningServer | undefined

beforeAll(async () => {
  server = await startServer(readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: directory, DEMO: "false", CLOCK: "manual" }))
  realClockServer = await startServer(readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: realClockDirectory, DEMO: "false" }))
})

afterAll(async () => {
  await server?.close()
  await realClockServer?.close()
  rmSync(directory, { recursive: true, force: true })
  rmSync(realClockDirectory, { recursive: true, force: true })
})

const targetOf = (running: RunningServer | undefined): Target => {
  if (running === undefined) throw new Error("the standalone host did not start")
  return { baseUrl: running.url, adminToken: running.adminToken }
}

httpConformance("standalone on SQLite", () => targetOf(server))

describe.sequential("HTTP conformance: standalone on SQLite, real clock", () => {
  expiryCases(() => targetOf(realClockServer))
})
