import { expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { createMerchant, issueCredentials, type MerchantBody } from "./fixtures.js"
import { adminRequest, type Target } from "./signing.js"

/** The admin merchant resource's fields, sorted: credentials never among them. */
export const MERCHANT_FIELDS = ["created_at", "dispute_fee", "fee_fixed", "fee_percent", "id", "ipn_json_style", "ipn_signature_format", "name", "status"]

const list = async (target: Target, query: string) => {
  const body = expectOk(await adminRequest(target, "GET", `/merchants${query}`))
  expect(Object.keys(body).sort()).toEqual(["data", "meta"])
  expect(Object.keys(body.meta).sort()).toEqual(["current_page", "last_page", "per_page", "total"])
  for (const merchant of body.data) expect(Object.keys(merchant).sort()).toEqual(MERCHANT_FIELDS)
  return body as { data: Array<MerchantBody & { created_at: string }>; meta: Record<string, number> }
}

/**
 * GET /admin/v1/merchants: `{data, meta}` pages, newest first, filtered by review status. Cases
 * run one after another, so the merchants a case has just created are the newest on the host.
 */
export const adminListCases = (target: () => Target) => {
  it("lists merchants newest first, 20 a page by default, and shows each as GET /merchants/{id} does", async () => {
    const older = await createMerchant(target())
    const newer = await createMerchant(target(), { status: "approved", fee_percent: 1.25 })
    const page = await list(target(), "")
    expect(page.meta).toMatchObject({ current_page: 1, per_page: 20 })
    expect(page.meta["total"]).toBeGreaterThanOrEqual(2)
    expect(page.meta["last_page"]).toBe(Math.ceil(page.meta["total"]! / 20))
    expect(page.data.length).toBe(Math.min(20, page.meta["total"]!))
    expect(page.data.slice(0, 2).map((merchant) => merchant.id)).toEqual([newer.id, older.id])
    expect(page.data[0]!.created_at).toMatch(ISO_MICROS)
    expect(page.data[0]).toEqual(expectOk(await adminRequest(target(), "GET", `/merchants/${newer.id}`)))
  })

  it("filters by status and pages with page and per_page, each page carrying the same total", async () => {
    const mine = [await createMerchant(target(), { status: "rejected" }), await createMerchant(target(), { status: "rejected" }), await createMerchant(target(), { status: "rejected" })]
    await createMerchant(target(), { status: "approved" })
    const first = await list(target(), "?status=rejected&per_page=2")
    const total = first.meta["total"]!
    expect(total).toBeGreaterThanOrEqual(3)
    expect(first.meta).toEqual({ current_page: 1, per_page: 2, total, last_page: Math.ceil(total / 2) })
    expect(first.data.map((merchant) => merchant.id)).toEqual([mine[2]!.id, mine[1]!.id])
    const second = await list(target(), "?per_page=2&page=2&status=rejected")
    expect(second.meta).toEqual({ current_page: 2, per_page: 2, total, last_page: Math.ceil(total / 2) })
    expect(second.data[0]!.id).toBe(mine[0]!.id)
    for (const merchant of [...first.data, ...second.data]) expect(merchant.status).toBe("rejected")
    const beyond = await list(target(), `?status=rejected&per_page=100&page=${Math.ceil(total / 100) + 1}`)
    expect(beyond.data).toEqual([])
    expect(beyond.meta["total"]).toBe(total)
  })

  it("never shows a merchant's keys or secrets, hashed, sealed or plain", async () => {
    const merchant = await createMerchant(target(), { status: "approved" })
    const issued = await issueCredentials(target(), merchant.id, "sandbox")
    const texts = [(await adminRequest(target(), "GET", "/merchants?per_page=1")).text, (await adminRequest(target(), "GET", `/merchants/${merchant.id}`)).text]
    expect(JSON.parse(texts[0]!).data[0].id).toBe(merchant.id)
    for (const text of texts) {
      for (const secret of [issued.merchant_key, issued.api_key, issued.client_secret, issued.webhook_secret]) expect(text).not.toContain(secret)
      expect(text).not.toMatch(/secret|hash|api_key|sealed/i)
    }
  })

  it.each([
    ["?page=0", ["page"]],
    ["?page=-1", ["page"]],
    ["?page=abc", ["page"]],
    ["?page=1.5", ["page"]],
    ["?page=1e2", ["page"]],
    ["?page=99999999999", ["page"]],
    ["?page=1&page=2", ["page"]],
    ["?per_page=0", ["per_page"]],
    ["?per_page=101", ["per_page"]],
    ["?per_page=ten", ["per_page"]],
    ["?status=active", ["status"]],
    ["?status=APPROVED", ["status"]],
    ["?page=0&per_page=500&status=gone", ["page", "per_page", "status"]]
  ])("refuses the query %s with 422 VALIDATION_FAILED naming each bad parameter", async (query, fields) => {
    const body = expectError(await adminRequest(target(), "GET", `/merchants${query}`), { status: 422, errorCode: "VALIDATION_FAILED", fields })
    expect(Object.keys(body.errors).sort()).toEqual(fields)
  })

  it("accepts the bounds of page and per_page", async () => {
    expect((await list(target(), "?per_page=1")).data.length).toBe(1)
    expect((await list(target(), "?per_page=100&page=1")).meta["per_page"]).toBe(100)
    expect((await list(target(), "?page=999999999")).data).toEqual([])
  })
}
