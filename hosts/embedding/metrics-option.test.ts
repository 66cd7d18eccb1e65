import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { createMerchantPayments, type MerchantPaymentsOptions } from "./index.js"

const scratch = mkdtempSync(join(tmpdir(), "mp-metrics-option-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const kit = (name: string, metrics: MerchantPaymentsOptions["metrics"]) =>
  createMerchantPayments({
    database: `sqlite:${join(scratch, `${name}.db`)}`,
    masterKey: "44".repeat(32),
    adminToken: "metrics-option-token",
    baseUrl: "https://shop.example",
    basePath: "/payments",
    backgroundJobs: false,
    logging: false,
    ...(metrics !== undefined ? { metrics } : {})
  })

const get = async (payments: { readonly fetch: (request: Request) => Promise<Response> }, token?: string) => {
  const response = await payments.fetch(new Request("https://shop.example/payments/metrics", {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
  }))
  return { status: response.status, text: await response.text() }
}

describe("the metrics option of an embedded kit", () => {
  it("by default: under the base path, behind the admin token", async () => {
    const payments = await kit("default", undefined)
    try {
      expect((await get(payments)).status).toBe(401)
      expect((await get(payments, "wrong")).status).toBe(401)
      const scraped = await get(payments, "metrics-option-token")
      expect(scraped.status).toBe(200)
      expect(scraped.text).toContain("# TYPE process_resident_memory_bytes gauge")
    } finally {
      await payments.close()
    }
  })

  it("{ public: true }: readable without the token", async () => {
    const payments = await kit("public", { public: true })
    try {
      expect((await get(payments)).status).toBe(200)
    } finally {
      await payments.close()
    }
  })

  it("false: no /metrics at all", async () => {
    const payments = await kit("off", false)
    try {
      const answered = await get(payments, "metrics-option-token")
      expect(answered.status).toBe(404)
      expect(JSON.parse(answered.text)).toMatchObject({ success: false, error_code: "NOT_FOUND" })
    } finally {
      await payments.close()
    }
  })
})
