// What a merchant reads of each payment: a badge saying what happened (declined, cancelled, expired,
// partly refunded, refunded, success, pending), the same in the list and on the detail; and a refund above
// what remains refused at the review, before any confirm step.
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

let kit: PlatformDashboard
let shop: { readonly id: number; readonly credentials: IssuedCredentials }
const owner = () => ({ merchant: shop.id })

/** A sandbox payment of 100.00 USD, ended as asked (or left pending). */
const payment = async (outcome: "success" | "failed" | "cancelled" | undefined) => {
  const started = await kit.api(shop.credentials, "POST", "/api/v1/initiate-payment", {
    payment_amount: 100, currency_code: "USD", ref_trx: `order-${randomUUID()}`,
    success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
  })
  expect(started.status, JSON.stringify(started.json)).toBe(200)
  const trxId = started.json.info.trx_id as string
  if (outcome !== undefined) expect((await kit.api(shop.credentials, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome })).status).toBe(200)
  return trxId
}

const refund = async (trxId: string, amount: number) =>
  expect((await kit.api(shop.credentials, "POST", "/api/v1/refund-payment", { trx_id: trxId, amount })).status).toBe(200)

/** The badge (class and words) in the list's row of a payment, and on its page's Status row. */
const badges = async (trxId: string) => {
  const list = await kit.page("/dashboard/payments?environment=sandbox", owner())
  const row = list.text.split("<tr>").find((part) => part.includes(`/payments/${trxId}?`))!
  const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, owner())
  const statusRow = detail.text.split("<tr>").find((part) => part.includes(">Status</th>"))!
  const badge = (html: string) => /<span class="status ([a-z_]+)">([^<]+)<\/span>/.exec(html)?.slice(1, 3)
  return { list: badge(row), detail: badge(statusRow) }
}

beforeAll(async () => {
  // A manual clock, so a checkout can be left to expire.
  kit = await startPlatformDashboard({ clock: "manual" })
  shop = await kit.onboard("Badge Shop")
}, 60_000)
afterAll(() => kit.close())

describe("payment states on the dashboard", () => {
  it("says what happened to each payment, as a badge, in the list and on its page alike", async () => {
    const partly = await payment("success")
    await refund(partly, 40)
    const whole = await payment("success")
    await refund(whole, 100)
    const cases: ReadonlyArray<readonly [string, readonly [string, string]]> = [
      [await payment(undefined), ["pending", "pending"]],
      [await payment("success"), ["success", "success"]],
      [await payment("failed"), ["declined", "declined"]],
      [await payment("cancelled"), ["cancelled", "cancelled"]],
      [partly, ["partly_refunded", "partly refunded"]],
      [whole, ["refunded", "refunded"]]
    ]
    for (const [trxId, expected] of cases) {
      expect(await badges(trxId), trxId).toEqual({ list: expected, detail: expected })
    }
    // Left until its checkout link expired: the list ends it and says so.
    const left = await payment(undefined)
    await kit.payments.admin.clock.advance(2 * 86_400)
    expect(await badges(left)).toEqual({ list: ["expired", "expired"], detail: ["expired", "expired"] })
  })

  it("refuses at the review a refund above what remains, with the balance left, and no confirm step", async () => {
    const trxId = await payment("success")
    await refund(trxId, 30)
    const detail = await kit.page(`/dashboard/payments/${trxId}?environment=sandbox`, owner())
    const form = { csrf_token: formTokenOf(detail.text), environment: "sandbox", idempotency_key: randomUUID(), amount: "70.01", reason: "" }
    const review = await kit.post(`/dashboard/payments/${trxId}/refund/review`, form, owner())
    expect(review.status).toBe(422)
    expect(textOf(review.text)).toContain("Refund amount exceeds the refundable balance. The refundable balance is 70.00 USD.")
    expect(textOf(review.text)).not.toContain("Confirm the refund")
    // No form on the page sends the refund itself: only the review's, again.
    expect(review.text).not.toContain(`/payments/${trxId}/refund"`)
    // What remains exactly is reviewed as before.
    const exact = await kit.post(`/dashboard/payments/${trxId}/refund/review`, { ...form, amount: "70.00" }, owner())
    expect(exact.status).toBe(200)
    expect(textOf(exact.text)).toContain("Refund 70.00 USD of payment")
  })
})
