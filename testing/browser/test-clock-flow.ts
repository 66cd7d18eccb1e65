import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type Credentials, type DashboardWorld, signedCall } from "./dashboard-flow.js"

// The Test clocks section in a real browser (issue 36): the owner creates a clock with the form, a
// subscription is made on it through the API, the clock's page lists it, the Advance form moves the
// clock a month (the subscription's next invoice is opened at the clock's time), and Delete removes
// it with its subscription. A viewer sees the pages, no form. Every page at 390 and 1280 px, axe-clean.

const dashboard = (world: DashboardWorld, path: string) => `${world.base}/dashboard${path}?environment=sandbox`

export const testClockFlow = async (world: DashboardWorld) => {
  const issued = await adminCall(world, "POST", `/merchants/${world.merchantId}/credentials`, { environment: "sandbox" })
  expect(issued.status, JSON.stringify(issued.json)).toBe(201)
  const credentials = issued.json as Credentials

  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Test clocks", exact: true }).click()
  await page.waitForURL(/\/dashboard\/test-clocks\?/)
  await checkPage(page, `${world.name}-test-clocks-empty`)
  await page.getByLabel("Name (optional)").fill("Monthly plan walkthrough")
  await page.getByLabel("Frozen time (UTC)").fill("2030-01-31T09:30:00")
  await page.getByRole("button", { name: "Create test clock" }).click()
  await page.waitForURL(/done=created$/)
  const clockId = (await page.locator("code.trx").first().innerText()).trim()
  expect(clockId).toMatch(/^clock_/)

  const reference = `walkthrough-${Date.now()}`
  const created = await signedCall(world, credentials, "POST", "/api/v1/subscriptions", JSON.stringify({
    external_reference: reference,
    billing_cycle: "monthly",
    payment_amount: "9.99",
    currency_code: "USD",
    customer_email: "subscriber@example.com",
    success_redirect: `${world.merchantSite}/ok`,
    cancel_redirect: `${world.merchantSite}/cancel`,
    ipn_url: `${world.merchantSite}/ipn`,
    test_clock: clockId
  }))
  expect(created.status, JSON.stringify(created.json)).toBe(201)
  const subscription = created.json!["data"] as Record<string, any>
  expect(subscription).toMatchObject({ test_clock: clockId, created_at: "2030-01-31T09:30:00.000000Z" })
  // Paid now, on the deployment's time: the subscription is active on its clock's.
  expect((await signedCall(world, credentials, "POST", `/api/v1/sandbox/payments/${subscription["latest_invoice"]["trx_id"]}/simulate`, JSON.stringify({ outcome: "success" }))).status).toBe(200)

  await page.reload()
  expect(await page.locator("main").innerText()).toContain(reference)
  await checkPage(page, `${world.name}-test-clock`)
  await page.getByLabel("New frozen time (UTC)").fill("2030-02-28T12:00:00")
  await page.getByRole("button", { name: "Advance clock" }).click()
  await page.waitForURL(/done=advanced$/)
  const advanced = await page.locator("main").innerText()
  expect(advanced).toContain("Test clock advanced.")
  expect(advanced).toContain("2030-02-28 12:00 UTC")
  const renewed = await signedCall(world, credentials, "GET", `/api/v1/subscriptions/${subscription["id"]}`)
  expect(renewed.json!["data"]).toMatchObject({ status: "past_due", latest_invoice: { sequence: 2, created_at: "2030-02-28T09:30:00.000000Z" } })
  await checkPage(page, `${world.name}-test-clock-advanced`)
  // The subscription's own page names its clock, and links back to it.
  await page.getByRole("link", { name: reference }).click()
  await page.waitForURL(new RegExp(`/dashboard/subscriptions/${subscription["id"]}`))
  expect(await page.locator("main").innerText()).toContain(clockId)
  await checkPage(page, `${world.name}-subscription-on-clock`)
  await page.getByRole("link", { name: clockId }).click()
  await page.waitForURL(new RegExp(`/dashboard/test-clocks/${clockId}`))

  // Not later than the clock: refused in the API's words, on the page, the time kept.
  await page.getByLabel("New frozen time (UTC)").fill("2030-01-01T00:00:00")
  await page.getByRole("button", { name: "Advance clock" }).click()
  await expect.poll(() => page.locator(".problem").innerText()).toContain("later than the clock's current frozen time")
  await checkPage(page, `${world.name}-test-clock-refused`)
  await context.close()

  const viewing = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const viewer = await world.signIn(viewing, "viewer")
  for (const path of ["/test-clocks", `/test-clocks/${clockId}`]) {
    await viewer.goto(dashboard(world, path))
    expect(await viewer.locator("main").innerText()).toContain("Test clock")
    expect(await changingForms(viewer), path).toEqual([])
  }
  await viewing.close()

  const deleting = await world.browser.newContext({ bypassCSP: true, viewport: { width: 390, height: 900 } })
  const owner = await world.signIn(deleting, "owner")
  await owner.goto(dashboard(world, `/test-clocks/${clockId}`))
  await owner.getByRole("button", { name: "Delete test clock" }).click()
  await owner.waitForURL(/done=deleted$/)
  expect(await owner.locator("main").innerText()).toContain("Test clock deleted")
  expect((await signedCall(world, credentials, "GET", `/api/v1/subscriptions/${subscription["id"]}`)).status).toBe(404)
  await checkPage(owner, `${world.name}-test-clocks-after-delete`)
  await deleting.close()
}
