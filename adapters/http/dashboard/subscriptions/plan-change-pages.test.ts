import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pressButton } from "../../../../conformance/gateway/html-forms.js"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { formTokenOf, type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

// The subscription page's plan section over HTTP on the real kit: the schedule, a stored change,
// pause and resume through the owner's forms (form token, audit), refusals in the API's words,
// and no form for a viewer.

const form = (fields: Readonly<Record<string, string>>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const
})

describe("dashboard subscription plan changes", () => {
  let dash: PlatformDashboard
  let receiver: Server
  let ipnUrl = ""
  let shop: { readonly id: number; readonly credentials: IssuedCredentials }
  const owner = () => ({ merchant: shop.id })
  const viewer = () => ({ merchant: shop.id, role: "viewer" as const })
  const detailPath = (id: string) => `/dashboard/subscriptions/${id}?environment=sandbox`

  const subscribe = async (reference: string, extra: Record<string, unknown> = {}) => {
    const made = await dash.api(shop.credentials, "POST", "/api/v1/subscriptions", {
      payment_amount: "19.99",
      currency_code: "USD",
      external_reference: reference,
      billing_cycle: "monthly",
      customer_email: "ada@example.com",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: ipnUrl,
      ...extra
    })
    expect(made.status, JSON.stringify(made.json)).toBe(201)
    return made.json.data as { readonly id: string; readonly latest_invoice: { readonly payment_url: string } | null }
  }
  const pay = async (paymentUrl: string) => {
    const page = await (await fetch(paymentUrl)).text()
    const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)![1]!
    const gatewayPage = await (await fetch(`${paymentUrl}/pay`, form({ gateway_id: gatewayId }))).text()
    const button = pressButton(gatewayPage, "pay")!
    expect((await fetch(button.action!, form(button.fields))).status).toBe(303)
  }
  const post = async (id: string, verb: string, fields: Record<string, string>) => {
    const token = formTokenOf((await dash.page(detailPath(id), owner())).text)
    return dash.post(`/dashboard/subscriptions/${id}/${verb}`, { csrf_token: token, environment: "sandbox", ...fields }, owner())
  }

  beforeAll(async () => {
    receiver = createServer((request, response) => request.resume().on("end", () => response.writeHead(204).end()))
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    ipnUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/ipn`
    dash = await startPlatformDashboard({ webhooks: { allowPrivateTargets: true, pollIntervalMillis: 50, retryDelaysMillis: [] } })
    shop = await dash.onboard("Plans")
  }, 60_000)
  afterAll(async () => {
    await dash?.close()
    await new Promise((resolve) => receiver?.close(resolve))
  })

  it("shows the schedule, stores a change for the next period, pauses and resumes through the owner's forms", async () => {
    const mine = await subscribe("plan-1")
    await pay(mine.latest_invoice!.payment_url)
    const page = textOf((await dash.page(detailPath(mine.id), owner())).text)
    expect(page).toContain("Plan and schedule")
    expect(page).toMatch(/The next 4 invoices if nothing changes/)
    expect(page.match(/19\.99 USD/g)!.length).toBeGreaterThanOrEqual(5)

    const changed = await post(mine.id, "update", { payment_amount: "29.99", billing_cycle: "", proration: "next_period" })
    expect(changed.status).toBe(303)
    expect(changed.location).toBe(`/dashboard/subscriptions/${mine.id}?environment=sandbox&done=updated`)
    const afterChange = textOf((await dash.page(changed.location!, owner())).text)
    expect(afterChange).toContain("Plan changed.")
    expect(afterChange).toContain("Change at next renewal 29.99 USD")
    expect(afterChange).toMatch(/29\.99 USD/)

    const paused = await post(mine.id, "pause", { resumes_at: "" })
    expect(paused.status).toBe(303)
    const afterPause = textOf((await dash.page(paused.location!, owner())).text)
    expect(afterPause).toContain("Subscription paused")
    expect(afterPause).toMatch(/Paused since/)
    expect(afterPause).toContain("No invoice is scheduled while paused.")
    const api = await dash.api(shop.credentials, "GET", `/api/v1/subscriptions/${mine.id}`)
    expect(typeof api.json.data.paused_at).toBe("string")

    const again = await post(mine.id, "pause", { resumes_at: "" })
    expect(again.status).toBe(409)
    expect(textOf(again.text)).toContain("already paused")

    const resumed = await post(mine.id, "resume", {})
    expect(resumed.status).toBe(303)
    expect(textOf((await dash.page(resumed.location!, owner())).text)).toContain("Subscription resumed")

    const audit = await dash.payments.admin.audit.list({ merchant_id: shop.id })
    const operations = audit.data.filter((entry) => entry.path_params["subscription_id"] === mine.id).map((entry) => [entry.operation, entry.status])
    expect(operations).toEqual(expect.arrayContaining([["updateSubscription", 303], ["pauseSubscription", 303], ["pauseSubscription", 409], ["resumeSubscription", 303]]))
  })

  it("shows a trial's end; refuses a bad amount in the API's words; a viewer gets no form", async () => {
    const trial = await subscribe("plan-trial", { trial_days: 10 })
    const page = textOf((await dash.page(detailPath(trial.id), owner())).text)
    expect(page).toMatch(/Trial ends/)
    const refused = await post(trial.id, "update", { payment_amount: "abc", billing_cycle: "", proration: "now" })
    expect(refused.status).toBe(422)
    expect(refused.text).toContain(`role="alert"`)
    const unchosen = await post(trial.id, "update", { payment_amount: "20.00", billing_cycle: "", proration: "whenever" })
    expect(unchosen.status).toBe(400)
    const seen = await dash.page(detailPath(trial.id), viewer())
    expect(seen.text).not.toMatch(/<form[^>]*method="post"/)
    expect(textOf(seen.text)).toMatch(/Trial ends/)
    expect((await dash.post(`/dashboard/subscriptions/${trial.id}/pause`, { csrf_token: "forged", environment: "sandbox" }, owner())).status).toBe(403)
  })
})
