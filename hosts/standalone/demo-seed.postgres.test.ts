import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { createThrowawayDatabase } from "../../conformance/support/throwaway-postgres.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { startHost, stopAll } from "../../testing/hosts/child-hosts.js"
import { openDatabase } from "../../testing/hosts/shared-store-fixtures.js"

const baseUrl = process.env["TEST_DATABASE_URL"]

/**
 * Several built hosts with DEMO=true starting at the same moment on an empty PostgreSQL database (a
 * compose file's first `up`): every host starts, and the store holds one demo merchant with one
 * wallet and one credential set, not one per host.
 */
describe.skipIf(baseUrl === undefined || baseUrl === "")("DEMO=true on several hosts starting together on an empty postgres", () => {
  const scratch = childHostSuite("mp-demo-seed-", { receiver: false })

  it("three hosts at once seed one demo merchant, four rounds over fresh databases", async () => {
    for (let round = 0; round < 4; round++) {
      const database = await createThrowawayDatabase(baseUrl!)
      const rows = openDatabase(database.url)
      try {
        const env = { DATABASE_URL: database.url, MASTER_KEY: "ab".repeat(32), ADMIN_TOKEN: "demo-seed-token", DEMO: "true", LOG_LEVEL: "warn" }
        const hosts = await Promise.all([0, 1, 2].map((index) => startHost(join(scratch(), `r${round}-h${index}`), env)))
        expect(hosts).toHaveLength(3)
        const merchants = await rows.rows("SELECT id, name FROM merchants")
        expect(merchants.map((merchant) => merchant["name"]), `round ${round}`).toEqual(["Demo Store"])
        const [wallets] = await rows.rows("SELECT COUNT(*) AS n FROM wallets")
        expect(Number(wallets!["n"])).toBe(1)
        // Exactly one host printed the demo's credentials (shown once, at creation, with PostgreSQL).
        const shown = hosts.filter((host) => /test_mk_/.test(host.output()))
        expect(shown, hosts.map((host) => host.output()).join("\n---\n")).toHaveLength(1)
      } finally {
        await stopAll()
        await rows.close()
        await database.drop()
      }
    }
  }, 180_000)
})
