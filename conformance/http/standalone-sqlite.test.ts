import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { readHostConfig } from "../../hosts/standalone/host-config.js"
import { startServer, type RunningServer } from "../../hosts/standalone/server.js"
import { httpConformance, type Target } from "./suite.js"

// The standalone host in this process, on a SQLite file in a fresh directory (master key and admin
// token are generated beside it), listening on a free port.
const directory = mkdtempSync(join(tmpdir(), "mp-http-sqlite-"))
let server: RunningServer | undefined

beforeAll(async () => {
  server = await startServer(readHostConfig({ PORT: "0", HOST: "127.0.0.1", DATA_DIR: directory, DEMO: "false" }))
})

afterAll(async () => {
  await server?.close()
  rmSync(directory, { recursive: true, force: true })
})

const target = (): Target => {
  if (server === undefined) throw new Error("the standalone host did not start")
  return { baseUrl: server.url, adminToken: server.adminToken }
}

httpConformance("standalone on SQLite", target)
