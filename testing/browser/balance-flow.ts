import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type Credentials, type DashboardWorld, initiate, signedCall } from "./dashboard-flow.js"

// The Balances page in a real browser: the operator sets a two-day payout delay and a 10 % reserve
// held 7 days, a sandbox payment is paid, and the owner reads the balance split as the API answers it
// (pending with the date it becomes available, the reserve held); the Payouts page offers only what is
// available; a viewer sees the same page. The settings go back to their defaults afterwards.

const dashboard = (world: DashboardWorld, path: string) => `${world.base}/dashboard${path}?environment=sandbox`

export const balanceFlow = async (world: DashboardWorld) => {
  const settings = `/merchants/${world.merchantId}/payout-settings`
  expect((await adminCall(world, "PUT", settings, { payout_delay_days: 2, reserve_percent: "10", reserve_days: 7 })).status).toBe(200)
  try {
    // Its own keys: the owner's flow rolls the demo's.
    const issued = await adminCall(world, "POST", `/merchants/${world.merchantId}/credentials`, { environment: "sandbox" })
    expect(issued.status, JSON.stringify(issued.json)).toBe(201)
    const credentials = issued.json as Credentials
    const session = await initiate(world, credentials)
    const paid = await signedCall(world, credentials, "POST", `/api/v1/sandbox/payments/${session.info.trx_id}/simulate`, JSON.stringify({ outcome: "success" }))
    expect(paid.status, JSON.stringify(paid.json)).toBe(200)
    const balances = await signedCall(world, credentials, "GET", "/api/v1/balances")
    const usd = (balances.json!["data"] as ReadonlyArray<Record<string, any>>).find((each) => each["currency_code"] === "USD")!
    expect(usd["pending"]).toBeGreaterThan(0)
    expect(usd["reserved"]).toBeGreaterThan(0)
    const due = usd["next_available_at"] as string

    const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
    const page = await world.signIn(context, "owner")
    await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Balances", exact: true }).click()
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Balances")
    const pending = await page.locator("#pending-USD").innerText()
    expect(pending).toContain(`becomes available on ${due.slice(0, 10)} ${due.slice(11, 16)} UTC`)
    expect(await page.locator("#reserved-USD").innerText()).toContain("10 % of each payment's net, held 7 days")
    expect(await page.locator("main").innerText()).toContain("2 days after each payment (set by the platform)")
    await checkPage(page, `${world.name}-balances`)
    const available = (await page.locator("#available-USD dd.amount").innerText()).trim()

    // The Payouts page offers the available amount, not the balance.
    await page.getByRole("link", { name: "Request a payout" }).click()
    expect((await page.locator("#balance-USD ~ .figure").innerText()).trim()).toBe(available)
    await context.close()

    const viewing = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
    const viewer = await world.signIn(viewing, "viewer")
    await viewer.goto(dashboard(world, "/balances"))
    expect(await viewer.locator("#pending-USD").innerText()).toBe(pending)
    expect(await changingForms(viewer)).toEqual([])
    await viewing.close()
  } finally {
    expect((await adminCall(world, "PUT", settings, {})).status).toBe(200)
  }
}
