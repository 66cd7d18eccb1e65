import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type Credentials, type DashboardWorld, signedCall } from "./dashboard-flow.js"
import { keepRefusedCall, REFUSED_CALL } from "../http/refused-call-row.js"

// The Logs section in a real browser: the merchant's server makes a good call and a refused one, and a
// call refused for its signature is in the store (testing/http/refused-call-row.ts); the owner finds them through the navigation, narrows the list to the 401 with the
// keyboard, opens it and reads the string the server signed and the likely cause; a viewer sees the
// same, no form that changes anything.

export const requestLogFlow = async (world: DashboardWorld, databaseFile: string) => {
  // The world's keys may have been rolled by an earlier flow: this one's own, fresh.
  const issued = await adminCall(world, "POST", `/merchants/${world.merchantId}/credentials`, { environment: "sandbox" })
  expect(issued.status, JSON.stringify(issued.json)).toBe(201)
  const credentials = issued.json as Credentials
  expect((await signedCall(world, credentials, "GET", "/api/v1/site-info")).status).toBe(200)
  expect((await signedCall(world, credentials, "POST", "/api/v1/initiate-payment", JSON.stringify({ payment_amount: "-1", currency_code: "USD" }))).status).toBe(422)
  keepRefusedCall(databaseFile, world.merchantId)

  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Logs", exact: true }).click()
  // The log is written just after the answers: the list is read again until the last of them is in it.
  await expect.poll(async () => {
    await page.reload()
    return page.locator("main").innerText()
  }, { timeout: 15_000 }).toContain("/api/v1/initiate-payment")
  expect(await page.locator("main").innerText()).toContain("/api/v1/site-info")
  expect(await page.locator("main").innerText()).toContain(REFUSED_CALL.path)
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
  expect(detail).toContain(`POST ${REFUSED_CALL.path}`)
  expect(detail).toContain(`Likely cause: ${REFUSED_CALL.cause}`)
  expect(detail).toContain(REFUSED_CALL.canonical)
  expect(detail).toContain("INVALID_CREDENTIALS")
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
    expect(await viewer.locator("main").innerText(), path).toContain(REFUSED_CALL.path)
    expect(await changingForms(viewer), path).toEqual([])
  }
  await viewing.close()
}
