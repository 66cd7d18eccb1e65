// The dashboard router runs every page's checks from its declaration, so no page can forget one:
// signed out, every signed-in page sends to the sign-in; a viewer, or a forged form token, is refused
// by every owner's form; and an owner's change is written with its audit entry or not at all.
import { randomUUID } from "node:crypto"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../hosts/embedding/index.js"
import { dashboardPages } from "./dashboard-routes.js"
import { signedIn } from "./page-declaration.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard } from "../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let shop: { readonly id: number; readonly credentials: IssuedCredentials }

beforeAll(async () => {
  kit = await startPlatformDashboard()
  shop = await kit.onboard("Router Shop")
}, 60_000)
afterAll(() => kit.close())

/** A declaration's address with every path parameter filled. */
const addressOf = (path: string) => path.replace(/\{[^}]+\}/g, "x-1")

const paidPayment = async () => {
  const started = await kit.api(shop.credentials, "POST", "/api/v1/initiate-payment", {
    payment_amount: 100, currency_code: "USD", ref_trx: `order-${randomUUID()}`,
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })
  const trxId = started.json.info.trx_id as string
  expect((await kit.api(shop.credentials, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })).status).toBe(200)
  return trxId
}

const auditCount = (database: Database.Database) => (database.prepare("SELECT count(*) AS n FROM audit_log").get() as { n: number }).n

describe("the dashboard router", () => {
  it("sends a signed-out visitor of every signed-in page or form to the sign-in, and serves the open ones", async () => {
    const closed = dashboardPages.filter(signedIn)
    expect(closed.length).toBeGreaterThan(15)
    for (const page of closed) {
      const address = `${kit.origin}${addressOf(page.path)}`
      const answer = await fetch(address, { method: page.method.toUpperCase(), redirect: "manual", ...(page.method === "post" ? { body: "a=1", headers: { "content-type": "application/x-www-form-urlencoded" } } : {}) })
      expect(answer.status, `${page.method} ${page.path}`).toBe(303)
      expect(answer.headers.get("location"), page.path).toMatch(/^\/login\?next=/)
    }
  })

  it("refuses every owner's form to a viewer and to a form token that is not the visitor's, and records neither", async () => {
    const database = new Database(kit.databaseFile)
    try {
      const before = auditCount(database)
      // The test platform signs owner and viewer in as one user id: the owner's page token is the viewer's too.
      const token = formTokenOf((await kit.page("/dashboard/developers?environment=sandbox", { merchant: shop.id })).text)
      const forms = dashboardPages.filter((page) => "form" in page && page.form === "owner")
      expect(forms.length).toBeGreaterThan(10)
      for (const page of forms) {
        const viewer = await kit.post(addressOf(page.path), { csrf_token: token, environment: "sandbox" }, { merchant: shop.id, role: "viewer" })
        expect(viewer.status, `viewer ${page.path}`).toBe(403)
        expect(viewer.text, page.path).toContain("Owners only")
        const forged = await kit.post(addressOf(page.path), { csrf_token: "forged", environment: "sandbox" }, { merchant: shop.id })
        expect(forged.status, `forged ${page.path}`).toBe(403)
        expect(forged.text, page.path).toContain("This form cannot be accepted")
      }
      expect(auditCount(database)).toBe(before)
    } finally {
      database.close()
    }
  })

  it("makes an owner's change together with its audit entry: when the entry cannot be written, the refund is not made", async () => {
    const trxId = await paidPayment()
    const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, { merchant: shop.id })
    const form = { csrf_token: formTokenOf(detail.text), environment: "sandbox", idempotency_key: randomUUID(), amount: "10.00", reason: "" }
    const database = new Database(kit.databaseFile)
    try {
      database.exec("CREATE TRIGGER audit_full BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'audit log unavailable'); END")
      const refused = await kit.post(`/dashboard/payments/${trxId}/refund`, form, { merchant: shop.id })
      expect(refused.status).toBeGreaterThanOrEqual(500)
      const refunds = await kit.api(shop.credentials, "GET", `/api/v1/refunds?trx_id=${trxId}`)
      expect(refunds.json.data).toEqual([])
      database.exec("DROP TRIGGER audit_full")
      // The same form, the log writable again: made once, and recorded once with what mattered.
      const before = auditCount(database)
      const made = await kit.post(`/dashboard/payments/${trxId}/refund`, form, { merchant: shop.id })
      expect(made.status).toBe(303)
      expect((await kit.api(shop.credentials, "GET", `/api/v1/refunds?trx_id=${trxId}`)).json.data).toHaveLength(1)
      expect(auditCount(database)).toBe(before + 1)
      const entry = database.prepare("SELECT operation, route, status, fields FROM audit_log ORDER BY rowid DESC LIMIT 1").get()
      expect(entry).toEqual({ operation: "refundPayment", route: "/dashboard/payments/{trx_id}/refund", status: 303, fields: JSON.stringify(["amount", "reason"]) })
    } finally {
      database.close()
    }
  })

  it("records a refused change after rolling it back, and a review that changes nothing not at all", async () => {
    const trxId = await paidPayment()
    const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, { merchant: shop.id })
    const form = { csrf_token: formTokenOf(detail.text), environment: "sandbox", idempotency_key: randomUUID(), amount: "500.00", reason: "" }
    const database = new Database(kit.databaseFile)
    try {
      const before = auditCount(database)
      expect((await kit.post(`/dashboard/payments/${trxId}/refund/review`, { ...form, amount: "5.00" }, { merchant: shop.id })).status).toBe(200)
      expect(auditCount(database)).toBe(before)
      expect((await kit.post(`/dashboard/payments/${trxId}/refund`, form, { merchant: shop.id })).status).toBe(422)
      expect(auditCount(database)).toBe(before + 1)
      expect(database.prepare("SELECT operation, status FROM audit_log ORDER BY rowid DESC LIMIT 1").get()).toEqual({ operation: "refundPayment", status: 422 })
    } finally {
      database.close()
    }
  })
})
