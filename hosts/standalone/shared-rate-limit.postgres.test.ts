import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../conformance/support/throwaway-postgres.js"
import { signRequest } from "../../core/signing/request-signature.js"
import { readHostConfig } from "../embedding/host-config.js"
import { startServer, type RunningServer } from "./server.js"

const baseUrl = process.env["TEST_DATABASE_URL"]
const LIMIT = 20

if (baseUrl === undefined || baseUrl === "") {
  console.warn("PostgreSQL shared rate-limit test SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("rate limit shared by two hosts on postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  describe("rate limit shared by two hosts on one postgres", () => {
    let database: ThrowawayDatabase
    let hosts: ReadonlyArray<RunningServer> = []

    beforeAll(async () => {
      database = await createThrowawayDatabase(baseUrl)
      const start = (demo: boolean) =>
        startServer(readHostConfig({
          PORT: "0",
          HOST: "127.0.0.1",
          DATA_DIR: mkdtempSync(join(tmpdir(), "mp-shared-limit-")),
          DATABASE_URL: database.url,
          MASTER_KEY: "ab".repeat(32),
          ADMIN_TOKEN: "shared-admin-token",
          RATE_LIMIT_PER_MINUTE: String(LIMIT),
          DEMO: demo ? "true" : "false"
        }))
      const first = await start(true)
      hosts = [first, await start(false)]
    })

    afterAll(async () => {
      for (const host of hosts) await host.close()
      await database?.drop()
    })

    const siteInfo = (host: RunningServer) => {
      const demo = hosts[0]!.demo!
      const timestamp = String(Math.floor(Date.now() / 1000))
      const path = "/api/v1/site-info"
      return fetch(host.url + path, {
        headers: {
          "x-environment": "sandbox",
          "x-merchant-key": demo.merchant_key,
          "x-api-key": demo.api_key,
          "x-timestamp": timestamp,
          "x-signature": signRequest(demo.client_secret, { timestamp, method: "GET", pathWithQuery: path, rawBody: "" })
        }
      }).then((response) => response.status)
    }

    it(`admits exactly ${LIMIT} requests a minute across both hosts`, async () => {
      // Stay inside one minute window: counts start again at the top of the minute.
      const secondOfMinute = Math.floor(Date.now() / 1000) % 60
      if (secondOfMinute > 45) await new Promise((resolve) => setTimeout(resolve, (61 - secondOfMinute) * 1000))
      const [a, b] = hosts as [RunningServer, RunningServer]
      const statuses: Array<number> = []
      for (let i = 0; i < 12; i++) statuses.push(await siteInfo(a))
      // Let host A flush its in-memory count, as it does every 200 ms.
      await new Promise((resolve) => setTimeout(resolve, 400))
      for (let i = 0; i < 12; i++) statuses.push(await siteInfo(b))
      for (let i = 0; i < 4; i++) statuses.push(await siteInfo(a))
      expect(statuses.filter((status) => status === 200).length).toBe(LIMIT)
      expect(statuses.filter((status) => status === 429).length).toBe(28 - LIMIT)
    }, 90_000)
  })
}
