import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type Credentials, type DashboardWorld, signedCall } from "./dashboard-flow.js"

// The Sandbox mail section in a real browser: a sandbox subscription's invoice mail is kept; the owner
// finds it through the navigation, opens it and reads its plain-text and HTML parts (the HTML framed
// from the dashboard); a viewer sees the same, no form.

/** A long description with a long unbroken word: what must not overflow a phone. */
const DESCRIPTION = "Monthly tea box <Oolong & Sencha> with the Darjeelingfirstflushspecialselection"

export const sandboxMailFlow = async (world: DashboardWorld) => {
  const issued = await adminCall(world, "POST", `/merchants/${world.merchantId}/credentials`, { environment: "sandbox" })
  expect(issued.status, JSON.stringify(issued.json)).toBe(201)
  const credentials = issued.json as Credentials
  const made = await signedCall(world, credentials, "POST", "/api/v1/subscriptions", JSON.stringify({
    payment_amount: "12.00",
    currency_code: "USD",
    external_reference: "mail-browser-1",
    billing_cycle: "monthly",
    customer_email: "tea.lover@example.com",
    description: DESCRIPTION,
    success_redirect: `${world.merchantSite}/ok`,
    cancel_redirect: `${world.merchantSite}/cancel`,
    ipn_url: `${world.merchantSite}/ipn`
  }))
  expect(made.status, JSON.stringify(made.json)).toBe(201)
  // The mail names the invoice by its document number, as its PDF does.
  const reference = ((made.json!["data"] as Record<string, any>)["latest_invoice"] as Record<string, string>)["number"]!

  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Sandbox mail", exact: true }).click()
  await expect.poll(() => page.locator("main").innerText()).toContain(reference)
  await checkPage(page, `${world.name}-sandbox-mail`)

  await page.getByRole("link", { name: new RegExp(reference) }).first().click()
  await page.waitForURL(/\/dashboard\/sandbox-mail\/[^/?]+\?/)
  const main = await page.locator("main").innerText()
  expect(main).toContain("tea.lover@example.com")
  expect(main).toContain(DESCRIPTION)
  const framed = page.frameLocator("iframe.mail-html")
  await expect.poll(() => framed.locator("body").innerText()).toContain(DESCRIPTION)
  await checkPage(page, `${world.name}-sandbox-mail-message`)
  const messagePath = new URL(page.url()).pathname
  await context.close()

  const viewing = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const viewer = await world.signIn(viewing, "viewer")
  for (const path of ["/dashboard/sandbox-mail", messagePath]) {
    await viewer.goto(`${world.base}${path}?environment=sandbox`)
    expect(await viewer.locator("main").innerText(), path).toContain(reference)
    expect(await changingForms(viewer), path).toEqual([])
  }
  await viewing.close()
}
