import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, it } from "vitest"
import { readHostConfig } from "../../hosts/embedding/host-config.js"
import { startServer, type RunningServer } from "../../hosts/standalone/server.js"
import { createThrowawayDatabase, type ThrowawayDatabase } from "../support/throwaway-postgres.js"
import { httpConformance, type Target } from "./suite.js"

const baseUrl = process.env["TEST_DATABASE_URL"]

// A fixed key is fine for a database that lives only as long as this file's run.
const MASTER_KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"

if (baseUrl === undefined || baseUrl === "") {
  // Said plainly so a green run without PostgreSQL is never mistaken for a tested one.
  console.warn("PostgreSQL HTTP conformance SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("HTTP conformance: standalone on postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  const directory = mkdtempSync(join(tmpdir(), "mp-http-postgres-"))
  let database: ThrowawayDatabase | undefined
  let server: RunningServer | undefined

  beforeAll(async () => {
    database = await createThrowawayDatabase(baseUrl)
    server = await startServer(readHostConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: directory,
      DEMO: "false",
      DATABASE_URL: database.url,
      MASTER_KEY,
      // Business time moves only through the admin clock, so the expiry cases run here too.
      CLOCK: "manual"
    }))
  })

  afterAll(async () => {
    try {
      await server?.close()
    } finally {
      await database?.drop()
      rmSync(directory, { recursive: true, force: true })
    }
  })

  const target = (): Target => {
    if (server === undefined) throw new Error("the standalone host did not start")
    return { baseUrl: server.url, adminToken: server.adminToken }
  }

  httpConformance("standalone on postgres", target)
}
