import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "vitest"
import { signRequest } from "../../core/signing/request-signature.js"
import { configFromEnv, createMerchantPayments, MerchantPaymentsConfigError } from "./index.js"

const MASTER_KEY = "22".repeat(32)

describe("configFromEnv", () => {
  it("turns the standalone host's variables into options the kit starts with, under BASE_PATH", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "mp-config-env-"))
    try {
      const options = await configFromEnv({
        DATABASE_URL: `sqlite:${join(scratch, "p.db")}`,
        MASTER_KEY,
        ADMIN_TOKEN: "env-admin-token",
        BASE_URL: "https://shop.example/",
        BASE_PATH: "/pay/",
        RATE_LIMIT_PER_MINUTE: "7",
        CHECKOUT_LIFETIME_MINUTES: "15"
      })
      expect(options).toMatchObject({ baseUrl: "https://shop.example", basePath: "/pay", adminToken: "env-admin-token", checkoutLifetimeMinutes: 15, settings: { rateLimitPerMinute: 7 } })
      const payments = await createMerchantPayments({ ...options, logging: false })
      try {
        expect(payments.publicUrl).toBe("https://shop.example/pay")
        const listed = await payments.fetch(new Request("https://shop.example/pay/admin/v1/settings", { headers: { authorization: "Bearer env-admin-token" } }))
        expect(await listed.json()).toMatchObject({ site_url: "https://shop.example/pay", rate_limit_per_minute: 7 })
      } finally {
        await payments.close()
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it("runs on an @effect/sql client layer the app already has, migrating it", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "mp-client-layer-"))
    const client = SqliteClient.layer({ filename: join(scratch, "app.db") })
    const payments = await createMerchantPayments({ database: client, masterKey: MASTER_KEY, baseUrl: "https://shop.example", logging: false })
    try {
      const merchant = await payments.admin.merchants.create({ name: "On the app's own client" })
      expect((await payments.admin.merchants.get(merchant.id)).name).toBe("On the app's own client")
    } finally {
      await payments.close()
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it("requires MASTER_KEY with PostgreSQL: every host of one store must use the same key", async () => {
    await expect(configFromEnv({ DATABASE_URL: "postgres://db.invalid/payments", BASE_URL: "https://shop.example" })).rejects.toThrow("MASTER_KEY is required with PostgreSQL")
  })

  it("reads MASTER_KEY_PREVIOUS as previousMasterKey, and names it when it is not a key", async () => {
    const env = { DATABASE_URL: "postgres://db.invalid/payments", BASE_URL: "https://shop.example", MASTER_KEY: "11".repeat(32) }
    const options = await configFromEnv({ ...env, MASTER_KEY_PREVIOUS: "22".repeat(32) })
    expect(Buffer.from(options.previousMasterKey as Uint8Array).toString("hex")).toBe("22".repeat(32))
    expect((await configFromEnv(env)).previousMasterKey).toBeUndefined()
    await expect(configFromEnv({ ...env, MASTER_KEY_PREVIOUS: "short" })).rejects.toThrow(/^MASTER_KEY_PREVIOUS must be 32 bytes/)
  })

  it("with SQLite and no MASTER_KEY, creates the key beside the database file once and reads it back after", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "mp-config-key-"))
    try {
      const env = { DATABASE_URL: `sqlite:${join(scratch, "db", "p.db")}`, BASE_URL: "https://shop.example" }
      const first = await configFromEnv(env)
      const keyFile = join(scratch, "db", "master.key")
      expect(statSync(keyFile).mode & 0o777).toBe(0o600)
      expect(first.masterKey).toBeInstanceOf(Uint8Array)
      expect(first.masterKey).toHaveLength(32)
      expect(first.adminToken).toBeUndefined()
      const second = await configFromEnv(env)
      expect(Buffer.from(second.masterKey).equals(Buffer.from(first.masterKey))).toBe(true)
      expect(Buffer.from(first.masterKey).toString("hex")).toBe(readFileSync(keyFile, "utf8").trim())

      // A client secret sealed under the created key opens after a restart that reads it back: the
      // signed call authenticates (a different key would fail to open it).
      const payments = await createMerchantPayments({ ...first, logging: false })
      const merchant = await payments.admin.merchants.create({ name: "Sealed" })
      const issued = await payments.admin.credentials.issue(merchant.id, "sandbox")
      await payments.close()
      const again = await createMerchantPayments({ ...(await configFromEnv(env)), logging: false })
      try {
        const timestamp = String(Math.floor(Date.now() / 1000))
        const response = await again.fetch(new Request("https://shop.example/api/v1/site-info", {
          headers: {
            "x-environment": "sandbox", "x-merchant-key": issued.merchant_key, "x-api-key": issued.api_key, "x-timestamp": timestamp,
            "x-signature": signRequest(issued.client_secret, { timestamp, method: "GET", pathWithQuery: "/api/v1/site-info", rawBody: "" })
          }
        }))
        expect(response.status, await response.clone().text()).toBe(200)
      } finally {
        await again.close()
      }
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it("refuses bad options by name before anything starts", async () => {
    const base = { database: "sqlite:/tmp/never-created.db", masterKey: MASTER_KEY, baseUrl: "https://shop.example" }
    for (const [options, text] of [
      [{ ...base, basePath: "payments?x" }, "basePath must look like"],
      [{ ...base, baseUrl: "shop.example" }, "baseUrl must be the app's public http(s) address"],
      [{ ...base, database: "mysql://u:p@db/x" }, "database must start with postgres://"],
      [{ ...base, masterKey: "short" }, "masterKey must be 32 bytes"],
      [{ ...base, clockStart: "2030-01-01T00:00:00Z" }, "clockStart is only read with clock: \"manual\""]
    ] as const) {
      await expect(createMerchantPayments(options)).rejects.toThrow(MerchantPaymentsConfigError)
      await expect(createMerchantPayments(options)).rejects.toThrow(text)
    }
  })

  it("after close() the handler turns requests away with 503 instead of reaching a closed store", async () => {
    const scratch = mkdtempSync(join(tmpdir(), "mp-close-"))
    const payments = await createMerchantPayments({ database: `sqlite:${join(scratch, "p.db")}`, masterKey: MASTER_KEY, baseUrl: "https://shop.example", logging: false })
    try {
      const { createServer } = await import("node:http")
      const server = createServer(payments.handler)
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
      expect((await fetch(`${origin}/healthz`)).status).toBe(200)
      await payments.close()
      expect((await fetch(`${origin}/healthz`)).status).toBe(503)
      await new Promise((resolve) => server.close(resolve))
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })
})
