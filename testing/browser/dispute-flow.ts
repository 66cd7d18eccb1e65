import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type Credentials, type DashboardWorld, initiate, signedCall } from "./dashboard-flow.js"

// The Disputes section in a real browser: the operator opens a sandbox dispute on a paid payment; the
// owner finds it in the list, follows it, answers it with evidence (sent once, even double-clicked)
// and reads what was sent; the payment's page names it; a viewer sees it all, no form.

const dashboard = (world: DashboardWorld, path: string) => `${world.base}/dashboard${path}?environment=sandbox`

/** A long reason and evidence with a long unbroken reference: what must not overflow a phone. */
const REASON = "product_not_received_after_carrier_lost_the_parcel"
const EVIDENCE = "Shipped on 2 March with DHL Express, tracking JD014600006281234567890123, delivered on 4 March and signed for by the customer.\n\nThe customer wrote on 5 March to thank us for the quick delivery."

export const disputeFlow = async (world: DashboardWorld) => {
  // Its own keys: the owner's flow rolls the demo's.
  const issued = await adminCall(world, "POST", `/merchants/${world.merchantId}/credentials`, { environment: "sandbox" })
  expect(issued.status, JSON.stringify(issued.json)).toBe(201)
  const credentials = issued.json as Credentials
  const session = await initiate(world, credentials)
  const trxId = session.info.trx_id
  expect((await signedCall(world, credentials, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, JSON.stringify({ outcome: "success" }))).status).toBe(200)
  const opened = await adminCall(world, "POST", `/sandbox/payments/${trxId}/dispute`, { reason: REASON, amount: "60.00" })
  expect(opened.status, JSON.stringify(opened.json)).toBe(201)
  const id = (opened.json!["data"] as Record<string, any>)["id"] as string

  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Disputes", exact: true }).click()
  await expect.poll(() => page.locator("main").innerText()).toContain(id)
  expect(await page.locator("main").innerText()).toContain("needs response")
  await checkPage(page, `${world.name}-disputes`)

  await page.getByRole("link", { name: id }).click()
  await page.waitForURL(new RegExp(`/dashboard/disputes/${id}`))
  await checkPage(page, `${world.name}-dispute`)
  await page.getByLabel("Why the payment stands").fill(EVIDENCE)
  await page.getByRole("button", { name: "Send evidence" }).dblclick()
  await page.waitForURL(/done=sent$/)
  const main = await page.locator("main").innerText()
  expect(main).toContain("Evidence sent")
  expect(main).toContain("JD014600006281234567890123")
  expect(main).toContain("under review")
  const api = await signedCall(world, credentials, "GET", `/api/v1/disputes/${id}`)
  expect(api.json!["data"]).toMatchObject({ status: "under_review", evidence: { text: EVIDENCE } })
  await checkPage(page, `${world.name}-dispute-answered`)

  // The payment's page names its dispute.
  await page.getByRole("link", { name: trxId }).click()
  await page.waitForURL(new RegExp(`/dashboard/payments/${trxId}`))
  expect(await page.locator("#payment-disputes ~ ul").innerText()).toContain("under review")
  await checkPage(page, `${world.name}-payment-disputed`)
  await context.close()

  const viewing = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const viewer = await world.signIn(viewing, "viewer")
  for (const path of ["/disputes", `/disputes/${id}`]) {
    await viewer.goto(dashboard(world, path))
    expect(await changingForms(viewer), path).toEqual([])
  }
  await viewing.close()
}
