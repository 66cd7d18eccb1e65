import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { describe, expect, it } from "vitest"
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

  it("requires MASTER_KEY: only the standalone quickstart invents one", async () => {
    await expect(configFromEnv({ BASE_URL: "https://shop.example" })).rejects.toThrow("MASTER_KEY is required")
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
