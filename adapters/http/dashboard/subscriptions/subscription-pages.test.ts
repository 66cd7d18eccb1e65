import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pressButton } from "../../../../conformance/gateway/html-forms.js"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

// The subscription pages over HTTP on the real kit: what an owner and a viewer see, the cancel form's
// two choices, and that nothing of another merchant or environment is reachable.

const form = (fields: Readonly<Record<string, string>>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const
})

describe("dashboard subscription pages", () => {
  let dash: PlatformDashboard
  let receiver: Server
  let ipnUrl = ""
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  let rival: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })
  const viewer = () => ({ merchant: shop.id, role: "viewer" as const })

  const subscribe = async (credentials: IssuedCredentials, reference: string) => {
    const made = await dash.api(credentials, "POST", "/api/v1/subscriptions", {
      payment_amount: "19.99",
      currency_code: "USD",
      external_reference: reference,
      billing_cycle: "monthly",
      customer_email: "ada@example.com",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: ipnUrl
    })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    return made.json.data as { readonly id: string; readonly latest_invoice: { readonly payment_url: string; readonly reference: string } }
  }

  /** Pays an invoice on its hosted checkout with the sandbox card, as a customer would. */
  const pay = async (paymentUrl: string) => {
    const page = await (await fetch(paymentUrl)).text()
    const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)![1]!
    const gatewayPage = await (await fetch(`${paymentUrl}/pay`, form({ gateway_id: gatewayId }))).text()
    const button = pressButton(gatewayPage, "pay")!
    expect((await fetch(button.action!, form(button.fields))).status).toBe(303)
  }

  const detailPath = (id: string) => `/dashboard/subscriptions/${id}?environment=sandbox`
  const cancelPath = (id: string) => `/dashboard/subscriptions/${id}/cancel`

  beforeAll(async () => {
    receiver = createServer((request, response) => request.resume().on("end", () => response.writeHead(204).end()))
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    ipnUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/ipn`
    // Private targets, so a loopback receiver can be a subscription's ipn_url.
    dash = await startPlatformDashboard({ webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50, retryDelaysMillis: [] } })
    shop = await dash.onboard("Shop")
    rival = await dash.onboard("Rival")
  }, 60_000)
  afterAll(async () => {
    await dash?.close()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  it("lists only the merchant's own subscriptions, each linking to its page", async () => {
    const mine = await subscribe(shop.credentials, "list-mine")
    await subscribe(rival.credentials, "list-rival")
    const page = await dash.page("/dashboard/subscriptions?environment=sandbox", owner())
    expect(page.status).toBe(200)
    expect(page.text).toContain(`href="/dashboard/subscriptions/${mine.id}?environment=sandbox"`)
    expect(textOf(page.text)).toContain("19.99 USD every month")
    expect(page.text).not.toContain("list-rival")
  })

  it("pages the list by number, 20 a page", async () => {
    const many = await dash.onboard("Many")
    for (let n = 1; n <= 21; n++) await subscribe(many.credentials, `many-${n}`)
    const first = await dash.page("/dashboard/subscriptions?environment=sandbox", { merchant: many.id })
    expect(textOf(first.text)).toContain("Page 1 of 2")
    expect(first.text).toContain("many-21")
    expect(first.text).not.toContain(">many-1<")
    expect(first.text).toContain(`href="/dashboard/subscriptions?environment=sandbox&amp;page=2"`)
    const second = await dash.page("/dashboard/subscriptions?environment=sandbox&page=2", { merchant: many.id })
    expect(second.text).toContain(">many-1<")
    expect(textOf(second.text)).toContain("Page 2 of 2")
    const refused = await dash.page("/dashboard/subscriptions?environment=sandbox&page=0", { merchant: many.id })
    expect(refused.status).toBe(400)
    expect(textOf(refused.text)).toContain("The page parameter must be a whole number")
  })

  it("shows a subscription with its invoices; another merchant's or environment's is a 404 page", async () => {
    const mine = await subscribe(shop.credentials, "detail-mine")
    const page = await dash.page(detailPath(mine.id), owner())
    expect(page.status).toBe(200)
    const text = textOf(page.text)
    expect(text).toContain("Subscription detail-mine")
    expect(text).toContain(mine.latest_invoice.reference)
    expect(text).toMatch(/Invoices .*pending/)

    const theirs = await subscribe(rival.credentials, "detail-rival")
    const refused = await dash.page(detailPath(theirs.id), owner())
    expect(refused.status).toBe(404)
    expect(refused.text).not.toContain("detail-rival")
    // The merchant is approved, so production is its to look at: its sandbox subscription is not there.
    expect((await dash.page(`/dashboard/subscriptions/${mine.id}?environment=production`, owner())).status).toBe(404)
    expect((await dash.page("/dashboard/subscriptions/no-such-id?environment=sandbox", owner())).status).toBe(404)
  })

  it("offers a viewer no form and refuses a viewer's cancel with 403", async () => {
    const mine = await subscribe(shop.credentials, "viewer-sees")
    const seen = await dash.page(detailPath(mine.id), viewer())
    expect(seen.status).toBe(200)
    expect(seen.text).not.toMatch(/<form[^>]*method="post"/)
    expect(seen.text).not.toContain("Cancel now")
    const list = await dash.page("/dashboard/subscriptions?environment=sandbox", viewer())
    expect(list.text).not.toMatch(/<form[^>]*method="post"/)

    const token = formTokenOf((await dash.page(detailPath(mine.id), owner())).text)
    const refused = await dash.post(cancelPath(mine.id), { csrf_token: token, environment: "sandbox", when: "now" }, viewer())
    expect(refused.status).toBe(403)
    expect(textOf((await dash.page(detailPath(mine.id), owner())).text)).toContain("Status pending")
  })

  it("refuses a cancel without the page's form token with 403, changing nothing", async () => {
    const mine = await subscribe(shop.credentials, "forged")
    expect((await dash.post(cancelPath(mine.id), { environment: "sandbox", when: "now" }, owner())).status).toBe(403)
    expect((await dash.post(cancelPath(mine.id), { csrf_token: "forged", environment: "sandbox", when: "now" }, owner())).status).toBe(403)
    expect(textOf((await dash.page(detailPath(mine.id), owner())).text)).toContain("Status pending")
  })

  it("cancels now: 303 to the page with a notice, audited; cancelling again is refused in the API's words", async () => {
    const mine = await subscribe(shop.credentials, "cancel-now")
    const page = await dash.page(detailPath(mine.id), owner())
    expect(page.text).toContain(`action="/dashboard/subscriptions/${mine.id}/cancel"`)
    // Pending: no paid period to wait for, so the only choice is now.
    expect(page.text).not.toContain(`value="period_end"`)
    const token = formTokenOf(page.text)

    const done = await dash.post(cancelPath(mine.id), { csrf_token: token, environment: "sandbox", when: "now" }, owner())
    expect(done.status).toBe(303)
    expect(done.location).toBe(`/dashboard/subscriptions/${mine.id}?environment=sandbox&done=cancelled`)
    const after = textOf((await dash.page(done.location!, owner())).text)
    expect(after).toContain("Subscription cancelled.")
    expect(after).toContain("Status cancelled")
    const api = await dash.api(shop.credentials, "GET", `/api/v1/subscriptions/${mine.id}`)
    expect(api.json.data.status).toBe("cancelled")

    const audit = await dash.payments.admin.audit.list({ merchant_id: shop.id })
    expect(audit.data.find((entry) => entry.operation === "cancelSubscription" && entry.path_params["subscription_id"] === mine.id)).toMatchObject({
      actor_type: "merchant_user",
      actor_id: "platform:u1",
      status: 303,
      route: "/dashboard/subscriptions/{subscription_id}/cancel",
      path_params: { subscription_id: mine.id, environment: "sandbox" },
      fields: ["when"]
    })

    const again = await dash.post(cancelPath(mine.id), { csrf_token: token, environment: "sandbox", when: "now" }, owner())
    expect(again.status).toBe(409)
    const apiRefusal = await dash.api(shop.credentials, "POST", `/api/v1/subscriptions/${mine.id}/cancel`, { at_period_end: false })
    expect(apiRefusal.status).toBe(409)
    expect(textOf(again.text)).toContain(`${apiRefusal.json.message}`)
    expect(again.text).toContain(`role="alert"`)
    const refusals = await dash.payments.admin.audit.list({ merchant_id: shop.id })
    expect(refusals.data.filter((entry) => entry.operation === "cancelSubscription" && entry.path_params["subscription_id"] === mine.id).map((entry) => entry.status))
      .toEqual([409, 303])
  })

  it("cancels an active subscription at period end: it stays active, marked as ending", async () => {
    const mine = await subscribe(shop.credentials, "period-end")
    await pay(mine.latest_invoice.payment_url)
    const page = await dash.page(detailPath(mine.id), owner())
    expect(textOf(page.text)).toContain("Status active")
    expect(page.text).toContain(`name="when" value="period_end"`)

    const done = await dash.post(cancelPath(mine.id), { csrf_token: formTokenOf(page.text), environment: "sandbox", when: "period_end" }, owner())
    expect(done.status).toBe(303)
    expect(done.location).toBe(`/dashboard/subscriptions/${mine.id}?environment=sandbox&done=ends_at_period_end`)
    const after = await dash.page(done.location!, owner())
    expect(textOf(after.text)).toContain("The subscription will end when its paid period does.")
    expect(textOf(after.text)).toContain("Status active ends at period end")
    // Only "now" is left to choose.
    expect(after.text).not.toContain(`value="period_end"`)
    expect(after.text).toContain(`value="now"`)
  })

  it("refuses a cancel without a choice, and another merchant's subscription with 404", async () => {
    const mine = await subscribe(shop.credentials, "no-choice")
    const token = formTokenOf((await dash.page(detailPath(mine.id), owner())).text)
    const unchosen = await dash.post(cancelPath(mine.id), { csrf_token: token, environment: "sandbox", when: "tomorrow" }, owner())
    expect(unchosen.status).toBe(400)
    expect(textOf(unchosen.text)).toContain("Choose when the subscription ends")

    const theirs = await subscribe(rival.credentials, "not-yours")
    const refused = await dash.post(cancelPath(theirs.id), { csrf_token: token, environment: "sandbox", when: "now" }, owner())
    expect(refused.status).toBe(404)
    const api = await dash.api(rival.credentials, "GET", `/api/v1/subscriptions/${theirs.id}`)
    expect(api.json.data.status).toBe("pending")
  })
})
