// The dashboard's payment pages over HTTP, the platform signing visitors in: the list and its
// filters, the detail's timeline, a refund made once per form key however often the form is sent,
// refusals in the API's words, and every merchant's payments kept to itself.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let shop: { readonly id: number; readonly credentials: IssuedCredentials }
let stranger: { readonly id: number; readonly credentials: IssuedCredentials }

/** A sandbox payment of 100.00 USD, paid through the simulator. */
const paidPayment = async (credentials: IssuedCredentials, ref = `order-${randomUUID()}`) => {
  const started = await kit.api(credentials, "POST", "/api/v1/initiate-payment", {
    payment_amount: 100, currency_code: "USD", ref_trx: ref,
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const trxId = started.json.info.trx_id as string
  const paid = await kit.api(credentials, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
  expect(paid.status, JSON.stringify(paid.json)).toBe(200)
  return trxId
}

const refundsOf = async (trxId: string) => (await kit.api(shop.credentials, "GET", `/api/v1/refunds?trx_id=${trxId}`)).json.data as ReadonlyArray<{ readonly refunded_amount: number }>

beforeAll(async () => {
  kit = await startPlatformDashboard()
  shop = await kit.onboard("Refund Shop")
  stranger = await kit.onboard("Stranger Shop")
}, 60_000)
afterAll(() => kit.close())

const owner = () => ({ merchant: shop.id })

describe("dashboard payments", () => {
  it("lists the merchant's payments newest first, filters by status and reference, and links each to its page", async () => {
    const reference = `filter-${randomUUID()}`
    const trxId = await paidPayment(shop.credentials, reference)
    const list = await kit.page("/dashboard/payments?environment=sandbox", owner())
    expect(list.status).toBe(200)
    expect(list.text).toContain(`/dashboard/payments/${trxId}?environment=sandbox`)
    expect(textOf(list.text)).toContain("100.00 USD")
    const byReference = await kit.page(`/dashboard/payments?environment=sandbox&reference=${reference}&status=&amount=&currency=`, owner())
    expect(byReference.status).toBe(200)
    expect(byReference.text.match(/\/dashboard\/payments\/[^?"]+\?environment=sandbox/g)).toEqual([`/dashboard/payments/${trxId}?environment=sandbox`])
    expect((await kit.page(`/dashboard/payments?environment=sandbox&reference=${reference}&status=failed`, owner())).text).toContain("No payments match.")
    const bad = await kit.page("/dashboard/payments?environment=sandbox&amount=ten&from=yesterday", owner())
    expect(bad.status).toBe(400)
    expect(textOf(bad.text)).toContain("The amount parameter must be a positive decimal amount")
    expect(textOf(bad.text)).toContain("From must be a date")
  })

  it("refunds once per form key: the same confirmed form sent twice makes one refund, and the page says so", async () => {
    const trxId = await paidPayment(shop.credentials)
    const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, owner())
    expect(detail.status).toBe(200)
    const key = /name="idempotency_key" value="([^"]+)"/.exec(detail.text)![1]!
    const form = { csrf_token: formTokenOf(detail.text), environment: "sandbox", idempotency_key: key, amount: "50.00", reason: "Half back" }
    const review = await kit.post(`/dashboard/payments/${trxId}/refund/review`, form, owner())
    expect(review.status).toBe(200)
    expect(textOf(review.text)).toContain("Refund 50.00 USD of payment")
    expect(await refundsOf(trxId)).toEqual([])
    // The review's button sends the same fields to the refund itself.
    expect(review.text).toContain(`action="/dashboard/payments/${trxId}/refund"`)
    const [first, second] = await Promise.all([
      kit.post(`/dashboard/payments/${trxId}/refund`, form, owner()),
      kit.post(`/dashboard/payments/${trxId}/refund`, form, owner())
    ])
    const statuses = [first.status, second.status].sort()
    // The racing second is told the refund is being made (409) or answered as the first (303); never a second refund.
    expect(statuses[1] === 303 || statuses[1] === 409).toBe(true)
    expect(statuses).toContain(303)
    const again = await kit.post(`/dashboard/payments/${trxId}/refund`, form, owner())
    expect(again.status).toBe(303)
    expect(again.location).toContain("done=refunded")
    expect((await refundsOf(trxId)).map((refund) => refund.refunded_amount)).toEqual([50])
    const after = await kit.page(again.location!, owner())
    expect(textOf(after.text)).toContain("Refund made.")
    expect(textOf(after.text)).toContain("refunded 50.00 USD: Half back")
    // The same key with another amount is not a new refund.
    const other = await kit.post(`/dashboard/payments/${trxId}/refund`, { ...form, amount: "10.00" }, owner())
    expect(other.status).toBe(409)
    expect((await refundsOf(trxId))).toHaveLength(1)
  })

  it("says a refused refund in the API's words, with the page still there", async () => {
    const trxId = await paidPayment(shop.credentials)
    const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, owner())
    const form = { csrf_token: formTokenOf(detail.text), environment: "sandbox", idempotency_key: randomUUID(), amount: "150.00", reason: "" }
    const refused = await kit.post(`/dashboard/payments/${trxId}/refund`, form, owner())
    expect(refused.status).toBe(422)
    // The contract's message has no full stop of its own: the page ends it before the next sentence.
    expect(textOf(refused.text)).toContain("Refund amount exceeds the refundable balance. The refundable balance is 100.00 USD.")
    // The API keeps the contract's words exactly, and the balance in its own field.
    const api = await kit.api(shop.credentials, "POST", "/api/v1/refund-payment", { trx_id: trxId, amount: 150 })
    expect(api.status).toBe(422)
    expect(api.json.message).toBe("Refund amount exceeds the refundable balance")
    expect(api.json.errors.remaining_refund).toEqual(["The refundable balance is 100.00 USD."])
    const malformed = await kit.post(`/dashboard/payments/${trxId}/refund`, { ...form, amount: "1.234" }, owner())
    expect(malformed.status).toBe(422)
    expect(await refundsOf(trxId)).toEqual([])
  })

  it("comes back from a redelivery only to a page inside the dashboard, dot segments resolved first; anywhere else is the overview", async () => {
    const trxId = await paidPayment(shop.credentials)
    const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, owner())
    const eventId = /\/events\/([^/"]+)\/redeliver/.exec(detail.text)![1]!
    const back = async (returnTo: string) => {
      const answer = await kit.post(`/dashboard/events/${eventId}/redeliver`, { csrf_token: formTokenOf(detail.text), environment: "sandbox", return_to: returnTo }, owner())
      expect(answer.status, returnTo).toBe(303)
      return answer.location
    }
    for (const outside of ["/../../../evil", "/%2e%2e/%2E%2E/evil", "/..%2f..%2fevil", "/.%2e/admin/v1/merchants"]) {
      expect(await back(outside), outside).toBe("/dashboard?environment=sandbox&done=redelivered")
    }
    expect(await back(`/payments/${trxId}`)).toBe(`/dashboard/payments/${trxId}?environment=sandbox&done=redelivered`)
    expect(await back(`/payments/../webhooks`)).toBe("/dashboard/webhooks?environment=sandbox&done=redelivered")
  })

  it("lets the people of a suspended, rejected or disabled merchant read, and refuses every change with a page saying why", async () => {
    const closing = await kit.onboard(`Closing Shop ${randomUUID()}`)
    const trxId = await paidPayment(closing.credentials)
    const visitor = { merchant: closing.id }
    const open = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, visitor)
    const eventId = /\/events\/([^/"]+)\/redeliver/.exec(open.text)![1]!
    const refund = { csrf_token: formTokenOf(open.text), environment: "sandbox", idempotency_key: randomUUID(), amount: "10.00", reason: "" }
    for (const status of ["suspended", "rejected", "disabled"] as const) {
      await kit.payments.admin.merchants.update(closing.id, { status })
      const page = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, visitor)
      expect(page.status, status).toBe(200)
      expect(textOf(page.text)).toContain(`This account is ${status}: its pages can be read, but nothing can be changed.`)
      const refused = await kit.post(`/dashboard/payments/${trxId}/refund`, refund, visitor)
      expect(refused.status, status).toBe(403)
      expect(textOf(refused.text)).toContain(`This account is ${status}`)
      const redelivery = await kit.post(`/dashboard/events/${eventId}/redeliver`, { csrf_token: refund.csrf_token, environment: "sandbox", return_to: "/webhooks" }, visitor)
      expect(redelivery.status, status).toBe(403)
    }
    await kit.payments.admin.merchants.update(closing.id, { status: "approved" })
    expect((await kit.api(closing.credentials, "GET", `/api/v1/refunds?trx_id=${trxId}`)).json.data).toEqual([])
    expect((await kit.post(`/dashboard/payments/${trxId}/refund`, refund, visitor)).status).toBe(303)
  })

  it("keeps each merchant's payments to itself: another's is a 404 page, and its refund form a 404 too", async () => {
    const theirs = await paidPayment(stranger.credentials)
    const page = await kit.page(`/dashboard/payments/${theirs}?environment=sandbox`, owner())
    expect(page.status).toBe(404)
    expect(page.text).not.toContain("100.00")
    const mine = await kit.page(`/dashboard/payments/${await paidPayment(shop.credentials)}?environment=sandbox`, owner())
    const posted = await kit.post(`/dashboard/payments/${theirs}/refund`, {
      csrf_token: formTokenOf(mine.text), environment: "sandbox", idempotency_key: randomUUID(), amount: "1.00"
    }, owner())
    expect(posted.status).toBe(404)
    expect((await kit.api(stranger.credentials, "GET", `/api/v1/refunds?trx_id=${theirs}`)).json.data).toEqual([])
  })

  it("refuses a refund form without its CSRF token (403) and any from a viewer (403), who is shown no refund form", async () => {
    const trxId = await paidPayment(shop.credentials)
    const fields = { environment: "sandbox", idempotency_key: randomUUID(), amount: "1.00" }
    expect((await kit.post(`/dashboard/payments/${trxId}/refund`, fields, owner())).status).toBe(403)
    expect((await kit.post(`/dashboard/payments/${trxId}/refund`, { ...fields, csrf_token: "forged" }, owner())).status).toBe(403)
    const viewerPage = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, { merchant: shop.id, role: "viewer" })
    expect(viewerPage.status).toBe(200)
    expect(viewerPage.text).not.toContain('method="post"')
    // The platform's user is the same person in both roles here, so the owner's token is the viewer's too: the role alone refuses.
    const ownerPage = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, owner())
    expect((await kit.post(`/dashboard/payments/${trxId}/refund`, { ...fields, csrf_token: formTokenOf(ownerPage.text) }, { merchant: shop.id, role: "viewer" })).status).toBe(403)
    expect(await refundsOf(trxId)).toEqual([])
  })

  it("sends pages with a strict Content-Security-Policy, no framing and a same-origin referrer", async () => {
    const response = await fetch(`${kit.origin}/dashboard/payments?environment=sandbox`, { headers: { "x-test-merchant": String(shop.id) } })
    const csp = response.headers.get("content-security-policy") ?? ""
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toContain("unsafe-inline")
    expect(response.headers.get("referrer-policy")).toBe("same-origin")
    expect(response.headers.get("cache-control")).toBe("no-store")
    // Nothing inline for the CSP to block: every script and style is the kit's own file.
    const html = await response.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/)
    expect(html).not.toMatch(/<style|style="/)
  })
})
