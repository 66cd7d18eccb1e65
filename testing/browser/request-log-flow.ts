import { createHmac } from "node:crypto"
import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type Credentials, type DashboardWorld, signedCall } from "./dashboard-flow.js"

// The Logs section in a real browser: the merchant's server makes a good call, one the API refuses, and
// one signed without its query string; the owner finds them through the navigation, narrows the list
// to the 401 with the keyboard, opens it and reads the string the server signed and the likely cause;
// an empty log says what it holds; a viewer sees the same, no form that changes anything.

const REFUSED = "/api/v1/balances?currency=USD"

/** A call signed over its path without the query it was sent with: the mistake the log should explain. */
const signedWithoutQuery = async (world: DashboardWorld, credentials: Credentials) => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac("sha256", credentials.client_secret).update(`${timestamp}.GET.${world.basePath}${REFUSED.split("?")[0]}.`).digest("hex")
  const response = await fetch(world.base + REFUSED, {
    headers: {
      "X-Environment": "sandbox", "X-Merchant-Key": credentials.merchant_key, "X-API-Key": credentials.api_key,
      "X-Timestamp": timestamp, "X-Signature": `sha256=${signature}`
    }
  })
  return response.status
}

export const requestLogFlow = async (world: DashboardWorld) => {
  // The world's keys may have been rolled by an earlier flow: this one's own, fresh.
  const issued = await adminCall(world, "POST", `/merchants/${world.merchantId}/credentials`, { environment: "sandbox" })
  expect(issued.status, JSON.stringify(issued.json)).toBe(201)
  const credentials = issued.json as Credentials
  expect((await signedCall(world, credentials, "GET", "/api/v1/site-info")).status).toBe(200)
  expect((await signedCall(world, credentials, "POST", "/api/v1/initiate-payment", JSON.stringify({ payment_amount: "-1", currency_code: "USD" }))).status).toBe(422)
  expect(await signedWithoutQuery(world, credentials)).toBe(401)

  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Logs", exact: true }).click()
  // The log is written just after the answers: the list is read again until the last of them is in it.
  await expect.poll(async () => {
    await page.reload()
    return page.locator("main").innerText()
  }, { timeout: 15_000 }).toContain(REFUSED)
  expect(await page.locator("main").innerText()).toContain("/api/v1/site-info")
  expect(await page.locator("main").innerText()).toContain("/api/v1/initiate-payment")
  await checkPage(page, `${world.name}-logs`)

  // The 401s only, chosen and applied from the keyboard.
  await page.getByLabel("Status").focus()
  await page.keyboard.press("ArrowDown")
  expect(await page.getByLabel("Status").inputValue()).toBe("401")
  await page.getByRole("button", { name: "Apply filters" }).focus()
  await page.keyboard.press("Enter")
  await page.waitForURL(/status=401/)
  const rows = page.locator("table.cards tbody tr")
  await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(1)
  for (const row of await rows.all()) expect(await row.innerText()).toContain("401 Unauthorized")
  expect(await page.locator("main").innerText()).not.toContain("/api/v1/site-info")
  await checkPage(page, `${world.name}-logs-401`)

  await rows.first().getByRole("link").focus()
  await page.keyboard.press("Enter")
  await page.waitForURL(/\/dashboard\/logs\/[^/?]+\?/)
  const detail = await page.locator("main").innerText()
  expect(detail).toContain(`GET ${REFUSED}`)
  expect(detail).toContain("Likely cause: query_string_missing")
  expect(detail).toMatch(/\d{10}\.GET\.\/api\/v1\/balances\?currency=USD\.[0-9a-f]{64}/)
  expect(detail).toContain("INVALID_CREDENTIALS")
  expect(detail).not.toContain(credentials.client_secret)
  await checkPage(page, `${world.name}-log-entry`)
  const entryPath = new URL(page.url()).pathname

  // Production, where this merchant made no call: the empty log says what it holds and how long.
  await page.goto(`${world.base}/dashboard/logs?environment=production`)
  expect(await page.locator("main").innerText()).toMatch(/No API requests logged yet\.[\s\S]*Entries are kept for 14 days\./)
  await checkPage(page, `${world.name}-logs-empty`)
  await context.close()

  const viewing = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const viewer = await world.signIn(viewing, "viewer")
  for (const path of ["/dashboard/logs", entryPath]) {
    await viewer.goto(`${world.base}${path}?environment=sandbox`)
    expect(await viewer.locator("main").innerText(), path).toContain(REFUSED)
    expect(await changingForms(viewer), path).toEqual([])
  }
  await viewing.close()
}
