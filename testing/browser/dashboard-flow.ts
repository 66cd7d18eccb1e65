import { createHmac, randomUUID } from "node:crypto"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { expect } from "vitest"
import { changingForms, checkPage, expectRadioGroup } from "./dashboard-checks.js"

// The merchant dashboard's must-show flow, in a real browser, against any host: the standalone one
// with the kit's own merchant users, or a platform's Express app with its own sign-in.

export interface Credentials {
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
}

export interface DashboardWorld {
  /** The kit's public base: origin plus base path. */
  readonly base: string
  /** The path the kit is mounted under ("" or "/payments"): signed paths are the full path. */
  readonly basePath: string
  readonly adminToken: string
  readonly merchantId: number
  readonly credentials: Credentials
  /** Where the merchant's site takes payments back and IPNs. */
  readonly merchantSite: string
  /** A payment of another merchant: its page must be a 404 to this one. */
  readonly strangerTrxId: string
  readonly browser: Browser
  /** Names screenshots apart. */
  readonly name: string
  /** Signs a new browser context in as the merchant's owner or viewer; answers the page it is on. */
  readonly signIn: (context: BrowserContext, role: "owner" | "viewer") => Promise<Page>
}

/** A merchant API call signed as the spec says; answers status and JSON. */
export const signedCall = async (world: Pick<DashboardWorld, "base" | "basePath">, credentials: Credentials, method: "GET" | "POST", path: string, body = "") => {
  const fullPath = `${world.basePath}${path}`
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac("sha256", credentials.client_secret).update(`${timestamp}.${method}.${fullPath}.${body}`).digest("hex")
  const response = await fetch(world.base + path, {
    method,
    ...(method === "POST" ? { body } : {}),
    headers: {
      "content-type": "application/json",
      "X-Environment": "sandbox",
      "X-Merchant-Key": credentials.merchant_key,
      "X-API-Key": credentials.api_key,
      "X-Timestamp": timestamp,
      "X-Signature": `sha256=${signature}`
    }
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) as Record<string, any> }
}

export const adminCall = async (world: Pick<DashboardWorld, "base" | "adminToken">, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${world.base}/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${world.adminToken}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, json: text === "" ? undefined : JSON.parse(text) as Record<string, any> }
}

interface Session {
  readonly payment_url: string
  readonly info: { readonly trx_id: string; readonly merchant_payment_method_codes: ReadonlyArray<string> }
}

export const initiate = async (world: DashboardWorld, credentials: Credentials): Promise<Session> => {
  const answer = await signedCall(world, credentials, "POST", "/api/v1/initiate-payment", JSON.stringify({
    payment_amount: 100,
    currency_code: "USD",
    ref_trx: `dash-${randomUUID()}`,
    description: "Dashboard browser test",
    success_redirect: `${world.merchantSite}/ok`,
    cancel_redirect: `${world.merchantSite}/cancel`,
    ipn_url: `${world.merchantSite}/ipn`
  }))
  expect(answer.status, JSON.stringify(answer.json)).toBe(200)
  return answer.json as Session
}

/** Pays a session through hosted checkout with the sandbox gateway, as a customer would. */
const payThrough = async (page: Page, world: DashboardWorld, session: Session) => {
  await page.goto(session.payment_url)
  await page.getByTestId(`gateway-${session.info.merchant_payment_method_codes[0]!}`).click()
  await page.getByTestId("pay").click()
  await page.waitForURL((url) => url.toString().startsWith(`${world.merchantSite}/ok`))
}

const dashboard = (world: DashboardWorld, path = "", query = "environment=sandbox") => `${world.base}/dashboard${path}?${query}`

/** The pages a signed-in visitor reaches, by the navigation's own links. */
const SECTIONS = ["Overview", "Payments", "Balances", "Disputes", "Subscriptions", "Webhooks", "Developers", "Logs", "API Config", "Statements"] as const

export const ownerFlow = async (world: DashboardWorld) => {
  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  expect(new URL(page.url()).pathname).toBe(`${world.basePath}/dashboard`)
  await checkPage(page, `${world.name}-overview`)

  // A sandbox payment paid through checkout shows in the list.
  const session = await initiate(world, world.credentials)
  const trxId = session.info.trx_id
  await payThrough(page, world, session)
  await page.goto(dashboard(world, "/payments"))
  await expect.poll(() => page.locator("main").innerText()).toContain(trxId)
  await checkPage(page, `${world.name}-payments`)

  // Its detail page: refund half; the confirmation's button double-clicked refunds once.
  await page.getByRole("link", { name: trxId }).click()
  expect(new URL(page.url()).pathname).toBe(`${world.basePath}/dashboard/payments/${trxId}`)
  await checkPage(page, `${world.name}-payment`)
  await page.getByLabel(/^Amount/).fill("50.00")
  await page.getByLabel(/^Reason/).fill("Half back")
  await page.getByRole("button", { name: "Review refund" }).click()
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Confirm the refund")
  await checkPage(page, `${world.name}-refund-confirm`)
  await page.getByRole("button", { name: /^Refund 50\.00 USD$/ }).dblclick()
  await page.waitForURL(/done=refunded/)
  const refunds = await signedCall(world, world.credentials, "GET", `/api/v1/refunds?trx_id=${trxId}`)
  expect(refunds.json!["data"]).toHaveLength(1)
  const verified = await signedCall(world, world.credentials, "GET", `/api/v1/verify-payment/${trxId}`)
  expect(verified.json!["refunded_amount"]).toBe(50)

  // The payment.refunded webhook shows on the timeline; redelivering it makes a second attempt.
  const refundedEvent = async () => {
    const events = await signedCall(world, world.credentials, "GET", `/api/v1/events?object_id=${trxId}&type=payment.refunded`)
    return (events.json!["data"] as ReadonlyArray<Record<string, any>>)[0]
  }
  await expect.poll(async () => (await refundedEvent())?.["status"], { timeout: 30_000 }).toBe("delivered")
  await page.reload()
  const delivery = page.locator("li.delivery", { hasText: "payment.refunded" })
  await expect.poll(() => delivery.count()).toBe(1)
  await delivery.getByRole("button", { name: /^Redeliver/ }).click()
  await page.waitForURL(/done=redelivered/)
  const eventId = (await refundedEvent())!["id"] as string
  await expect.poll(async () => {
    const detail = await signedCall(world, world.credentials, "GET", `/api/v1/events/${eventId}`)
    return (detail.json!["attempt_log"] as ReadonlyArray<unknown> | undefined)?.length
  }, { timeout: 30_000 }).toBe(2)

  // Roll the sandbox credentials without overlap: the old client secret stops signing, the new one works.
  await page.goto(dashboard(world, "/developers"))
  await checkPage(page, `${world.name}-developers`)
  await expectRadioGroup(page, "Overlap", ["No overlap: the old credentials stop now", "1 hour", "24 hours"])
  await page.setViewportSize({ width: 1280, height: 900 })
  await page.getByRole("button", { name: "Roll sandbox credentials" }).click()
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("New credentials")
  const rolled: Credentials = {
    merchant_key: await page.locator("#merchant-key").innerText(),
    api_key: await page.locator("#api-key").innerText(),
    client_secret: await page.locator("#client-secret").innerText()
  }
  expect(rolled.client_secret).not.toBe(world.credentials.client_secret)
  // Each value has a Copy button (made by the enhancement script) that puts exactly it on the clipboard.
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(world.base).origin })
  await page.getByRole("button", { name: "Copy Client secret" }).click()
  await expect.poll(() => page.getByRole("button", { name: "Copied Client secret" }).count()).toBe(1)
  expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(rolled.client_secret)
  expect((await signedCall(world, world.credentials, "GET", `/api/v1/verify-payment/${trxId}`)).status).toBe(401)
  expect((await signedCall(world, rolled, "GET", `/api/v1/verify-payment/${trxId}`)).status).toBe(200)

  // Narrow API Config to one gateway: the next checkout offers only that one.
  await page.goto(dashboard(world, "/api-config"))
  await checkPage(page, `${world.name}-api-config`)
  const gatewayBoxes = page.locator("input[name=gateway_ids]")
  expect(await gatewayBoxes.count()).toBeGreaterThanOrEqual(2)
  const kept = await gatewayBoxes.first().getAttribute("value")
  for (const box of await gatewayBoxes.all()) {
    if ((await box.getAttribute("value")) === kept) await box.check()
    else await box.uncheck()
  }
  await page.getByRole("button", { name: "Save API Config" }).click()
  await page.waitForURL(/done=saved/)
  const next = await initiate(world, rolled)
  await page.goto(next.payment_url)
  const offered = page.locator("[data-testid^=gateway-]")
  expect(await offered.count()).toBe(1)

  // The remaining sections, each as a person sees it; the overview again, now with a day's takings drawn.
  for (const [path, name] of [["", "overview-takings"], ["/webhooks", "webhooks"], ["/subscriptions", "subscriptions"], ["/billing-settings", "billing-settings"], ["/statements", "statements"], ["/team", "team"], ["/audit", "audit"]] as const) {
    const response = await page.goto(dashboard(world, path))
    expect(response?.status(), path).toBe(200)
    await checkPage(page, `${world.name}-${name}`)
  }
  // The audit log tells who refunded, rolled and changed API Config.
  const audit = await page.locator("main").innerText()
  for (const operation of ["refundPayment", "issueCredentials", "updateCheckoutSettings"]) expect(audit).toContain(operation)

  // Another merchant's payment is not there at all; a form without its CSRF token is refused.
  expect((await page.goto(dashboard(world, `/payments/${world.strangerTrxId}`)))?.status()).toBe(404)
  const forged = await context.request.post(`${world.base}/dashboard/payments/${trxId}/refund`, {
    form: { environment: "sandbox", amount: "1.00", idempotency_key: randomUUID() },
    maxRedirects: 0
  })
  expect(forged.status()).toBe(403)
  expect((await signedCall(world, rolled, "GET", `/api/v1/refunds?trx_id=${trxId}`)).json!["data"]).toHaveLength(1)
  await context.close()
  return { trxId, credentials: rolled }
}

/** A viewer sees every section and the payment, and no form that changes anything. */
export const viewerFlow = async (world: DashboardWorld, trxId: string) => {
  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "viewer")
  for (const section of SECTIONS) {
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: section, exact: true }).click()
    expect(await changingForms(page), section).toEqual([])
  }
  expect(await page.getByRole("link", { name: "Audit log" }).count()).toBe(0)
  await page.goto(dashboard(world, `/payments/${trxId}`))
  expect(await page.locator("main").innerText()).toContain(trxId)
  expect(await changingForms(page)).toEqual([])
  await checkPage(page, `${world.name}-viewer-payment`)
  await context.close()
}
