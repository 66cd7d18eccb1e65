// The Disputes pages over HTTP on the real kit, on a manual business clock: a sandbox dispute listed
// with its payment, amount, fee, reason and deadline (flagged as it nears and once it passes), answered
// through the owner's form in the core's words (audited, once), what was sent shown, a viewer offered
// no form, and the payment's page naming its dispute.
import { randomUUID } from "node:crypto"
import Database from "better-sqlite3"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

const DAY = 86_400

let dash: PlatformDashboard
let shop: { readonly id: number; readonly credentials: IssuedCredentials }
const owner = () => ({ merchant: shop.id })
const viewer = () => ({ merchant: shop.id, role: "viewer" as const })

const paidPayment = async () => {
  const started = await dash.api(shop.credentials, "POST", "/api/v1/initiate-payment", {
    payment_amount: 100, currency_code: "USD", ref_trx: `order-${randomUUID()}`,
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })
  const trxId = started.json.info.trx_id as string
  expect((await dash.api(shop.credentials, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })).status).toBe(200)
  return trxId
}
const openDispute = async (reason: string) => {
  const trxId = await paidPayment()
  const opened = await dash.payments.admin.disputes.openSandbox(trxId, { reason, amount: "40.00" })
  return { trxId, id: opened.data.id as string }
}
const lastAudit = () => {
  const database = new Database(dash.databaseFile)
  try {
    return database.prepare("SELECT operation, route, status, fields FROM audit_log ORDER BY rowid DESC LIMIT 1").get()
  } finally {
    database.close()
  }
}
const listPage = () => dash.page("/dashboard/disputes?environment=sandbox", owner())
/** The list's row of one dispute, as text. */
const rowOf = (page: string, id: string) => textOf(new RegExp(`<tr>(?:(?!</tr>).)*${id}(?:(?!</tr>).)*</tr>`).exec(page)?.[0] ?? "")

beforeAll(async () => {
  dash = await startPlatformDashboard({ clock: "manual" })
  shop = await dash.onboard("Dispute Shop")
  await dash.payments.admin.merchants.update(shop.id, { dispute_fee: "15.00" })
}, 60_000)
afterAll(() => dash?.close())

describe("dashboard dispute pages", () => {
  let answered: { readonly trxId: string; readonly id: string }
  let late: { readonly trxId: string; readonly id: string }

  it("says there are none yet", async () => {
    const page = await listPage()
    expect(page.status).toBe(200)
    expect(textOf(page.text)).toContain("No disputes.")
  })

  it("lists a dispute with its payment linked, amount, fee, reason, status and deadline", async () => {
    answered = await openDispute("product_not_received")
    const page = (await listPage()).text
    const row = rowOf(page, answered.id)
    expect(row).toContain(answered.trxId)
    expect(row).toContain("40.00 USD")
    expect(row).toContain("15.00 USD")
    expect(row).toContain("product_not_received")
    expect(page).toContain('<span class="status needs_response">needs response</span>')
    expect(page).toContain(`href="/dashboard/payments/${answered.trxId}?environment=sandbox"`)
    const api = (await dash.api(shop.credentials, "GET", `/api/v1/disputes/${answered.id}`)).json.data
    const due = api.evidence_due_by as string
    expect(page).toContain(`<time datetime="${due}">`)
    // A week ahead: neither soon nor overdue.
    expect(row).not.toMatch(/left|overdue/)
  })

  it("flags the deadline when it is near, and once it has passed", async () => {
    late = await openDispute("fraudulent")
    await dash.payments.admin.clock.advance(5 * DAY)
    const soon = (await listPage()).text
    expect(rowOf(soon, late.id)).toContain("2 days left")
    expect(soon).toMatch(new RegExp(`<span class="due soon">`))
    await dash.payments.admin.clock.advance(DAY + 23 * 3600)
    expect(rowOf((await listPage()).text, late.id)).toContain("1 hour left")
    await dash.payments.admin.clock.advance(3600)
    const after = (await listPage()).text
    expect(rowOf(after, late.id)).toContain("overdue")
    expect(after).toContain('<span class="due overdue">')
  })

  it("offers no form once the deadline passed, and refuses a late answer in the API's words", async () => {
    const detail = await dash.page(`/dashboard/disputes/${late.id}?environment=sandbox`, owner())
    expect(textOf(detail.text)).toContain("The deadline for evidence has passed")
    expect(detail.text).not.toContain("<textarea")
    // The visitor's form token, from a page that still has a form.
    const token = formTokenOf((await dash.page("/dashboard/developers?environment=sandbox", owner())).text)
    const refused = await dash.post(`/dashboard/disputes/${late.id}/evidence`, { csrf_token: token, environment: "sandbox", text: "Too late" }, owner())
    expect(refused.status).toBe(409)
    expect(textOf(refused.text)).toContain("the network no longer takes it")
    expect(lastAudit()).toMatchObject({ operation: "submitDisputeEvidence", status: 409 })
  })

  it("answers a dispute through the owner's form: the core's message for an empty text, then sent once, audited, shown", async () => {
    // The first dispute's deadline is past too by now: a fresh one to answer.
    answered = await openDispute("product_not_received")
    const path = `/dashboard/disputes/${answered.id}?environment=sandbox`
    const detail = (await dash.page(path, owner())).text
    expect(detail).toContain('<textarea id="evidence-text" name="text"')
    expect(detail).toContain('maxlength="20000"')
    const form = { csrf_token: formTokenOf(detail), environment: "sandbox" }
    const empty = await dash.post(`/dashboard/disputes/${answered.id}/evidence`, { ...form, text: "   " }, owner())
    expect(empty.status).toBe(422)
    expect(empty.text).toContain('<p class="field-problem" id="evidence-text-problem" role="alert">The text must say why the payment stands: it is what the card network reads.</p>')
    const evidence = "Delivered on 2 March, signed for by the customer <Jo>; tracking 1Z999."
    const sent = await dash.post(`/dashboard/disputes/${answered.id}/evidence`, { ...form, text: evidence }, owner())
    expect(sent.status, sent.text).toBe(303)
    expect(sent.location).toBe(`/dashboard/disputes/${answered.id}?environment=sandbox&done=sent`)
    expect(lastAudit()).toEqual({ operation: "submitDisputeEvidence", route: "/dashboard/disputes/{dispute_id}/evidence", status: 303, fields: JSON.stringify(["text"]) })
    const api = (await dash.api(shop.credentials, "GET", `/api/v1/disputes/${answered.id}`)).json.data
    expect(api).toMatchObject({ status: "under_review", evidence: { text: evidence, files: [] } })
    const after = (await dash.page(sent.location!, owner())).text
    expect(after).toContain("Delivered on 2 March, signed for by the customer &lt;Jo&gt;; tracking 1Z999.")
    expect(after).toContain('<span class="status under_review">under review</span>')
    expect(after).not.toContain("<textarea")
    const again = await dash.post(`/dashboard/disputes/${answered.id}/evidence`, { ...form, text: "Once more" }, owner())
    expect(again.status).toBe(409)
    expect(textOf(again.text)).toContain("evidence is taken only while it needs a response")
  })

  it("shows a viewer the pages and no form; keeps other environments out", async () => {
    const fresh = await openDispute("duplicate")
    const page = await dash.page(`/dashboard/disputes/${fresh.id}?environment=sandbox`, viewer())
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('method="post" action="/dashboard/disputes')
    expect((await dash.page(`/dashboard/disputes/${fresh.id}?environment=production`, owner())).status).toBe(404)
    expect((await dash.page(`/dashboard/disputes/dp_${"0".repeat(32)}?environment=sandbox`, owner())).status).toBe(404)
  })

  it("names the payment's dispute on the payment's page", async () => {
    const page = (await dash.page(`/dashboard/payments/${answered.trxId}?environment=sandbox`, owner())).text
    expect(page).toContain(`href="/dashboard/disputes/${answered.id}?environment=sandbox"`)
    expect(page).toContain('<span class="status under_review">under review</span>')
    // The refund form offers what the dispute leaves of the 100.00, as the refund itself allows.
    expect(textOf(page)).toContain("Amount (USD), up to 60.00")
    expect(page).toContain('name="amount" inputmode="decimal" required maxlength="40" value="60.00"')
  })
})
