import { expect } from "vitest"
import { changingForms, checkPage } from "./dashboard-checks.js"
import { adminCall, type DashboardWorld } from "./dashboard-flow.js"

// The Payouts section in a real browser: an owner adds a bank account (a mistyped IBAN first),
// asks for more than the balance, then requests a payout with a double click (one payout), which the
// operator pays; the bank account is deleted after its confirm step; a viewer sees it all, no form.

const dashboard = (world: DashboardWorld, path: string) => `${world.base}/dashboard${path}?environment=sandbox`

/** A long holder's name and the longest IBAN format (Malta, 31 characters): what must not overflow a phone. */
const HOLDER = "Shop Example International Trading and Distribution Company Limited"
const IBAN = "mt84 malt 0110 0001 2345 mtlc ast0 01s"

export const payoutFlow = async (world: DashboardWorld) => {
  const wallets = await adminCall(world, "GET", `/merchants/${world.merchantId}/wallets`)
  const wallet = (wallets.json!["data"] as ReadonlyArray<Record<string, any>>).find((each) => each["environment"] === "sandbox" && each["currency_code"] === "USD")!
  expect((await adminCall(world, "POST", `/wallets/${wallet["id"]}/adjustments`, { amount: "250.00", reason: "payout browser test" })).status).toBe(201)
  const payoutsOfMerchant = async () =>
    ((await adminCall(world, "GET", "/payouts?limit=100")).json!["data"] as ReadonlyArray<Record<string, any>>).filter((payout) => payout["merchant_id"] === world.merchantId)

  const context = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const page = await world.signIn(context, "owner")
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Payouts", exact: true }).click()
  await expect.poll(() => page.locator("main").innerText()).toContain("No payouts yet.")
  await checkPage(page, `${world.name}-payouts-empty`)

  // A bank account: the mistyped IBAN is refused under its field, the holder kept; then the right one.
  await page.getByRole("navigation", { name: "Payouts pages" }).getByRole("link", { name: "Bank accounts" }).click()
  await checkPage(page, `${world.name}-bank-accounts-empty`)
  await page.getByLabel("Account holder").fill(HOLDER)
  await page.getByLabel("IBAN", { exact: true }).fill("MT84 MALT 0110 0001 2345 MTLC AST0 02S")
  await page.getByRole("button", { name: "Add bank account" }).click()
  await expect.poll(() => page.locator("#bank-iban-problem").innerText()).toBe("The iban field's check digits do not match: it has a typing error.")
  expect(await page.getByLabel("Account holder").inputValue()).toBe(HOLDER)
  await checkPage(page, `${world.name}-bank-account-refused`)
  await page.getByLabel("IBAN", { exact: true }).fill(IBAN)
  await page.getByRole("button", { name: "Add bank account" }).click()
  await page.waitForURL(/done=added/)
  expect(await page.locator("main").innerText()).toContain("MT84 **** **** **** **** **** ***0 01S")
  await checkPage(page, `${world.name}-bank-accounts`)

  // More than the balance: the API's words under the amount, nothing moved.
  await page.getByRole("navigation", { name: "Payouts pages" }).getByRole("link", { name: "Payouts" }).click()
  const balance = await page.locator("#balance-USD ~ .figure").innerText()
  await page.getByLabel("Amount (USD)").fill("1000000.00")
  await page.getByRole("button", { name: "Request a payout" }).click()
  await expect.poll(() => page.locator("#payout-amount-USD-problem").innerText()).toContain("Payout amount exceeds the available balance.")
  expect(await payoutsOfMerchant()).toEqual([])
  await checkPage(page, `${world.name}-payout-refused`)

  // A payout, double-clicked: asked for once, pending, on its own page.
  await page.getByLabel("Amount (USD)").fill("120.50")
  await page.getByRole("button", { name: "Request a payout" }).dblclick()
  await page.waitForURL(/\/dashboard\/payouts\/po_[0-9a-f]+\?environment=sandbox&done=requested$/)
  const made = await payoutsOfMerchant()
  expect(made).toHaveLength(1)
  expect(made[0]).toMatchObject({ status: "pending", amount: 120.5 })
  expect(await page.locator("main").innerText()).toContain("waiting for the platform's approval")
  await checkPage(page, `${world.name}-payout-pending`)

  // The operator approves and pays it: the page shows paid with the bank's (long) reference.
  const id = made[0]!["id"] as string
  expect((await adminCall(world, "POST", `/payouts/${id}/approve`)).status).toBe(200)
  expect((await adminCall(world, "POST", `/payouts/${id}/mark-paid`, { reference: "SEPA-CT-20261127-NOTPROVIDED-0000000000000012345" })).status).toBe(200)
  await page.reload()
  expect(await page.locator("main").innerText()).toContain("SEPA-CT-20261127-NOTPROVIDED-0000000000000012345")
  await checkPage(page, `${world.name}-payout-paid`)
  await page.getByRole("link", { name: "All payouts" }).click()
  expect(await page.locator("#balance-USD ~ .figure").innerText()).not.toBe(balance)
  await checkPage(page, `${world.name}-payouts`)

  // Deleting the bank account asks first; the payout still names it as deleted.
  await page.getByRole("navigation", { name: "Payouts pages" }).getByRole("link", { name: "Bank accounts" }).click()
  await page.getByRole("button", { name: /^Delete bank account MT84/ }).click()
  await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Delete the bank account")
  await checkPage(page, `${world.name}-bank-account-delete`)
  await page.getByRole("button", { name: "Delete bank account", exact: true }).click()
  await page.waitForURL(/done=deleted/)
  await page.goto(dashboard(world, "/payouts"))
  expect(await page.locator("main").innerText()).toContain("a deleted bank account")
  await context.close()

  // A viewer: every Payouts page, no form.
  const viewing = await world.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } })
  const viewer = await world.signIn(viewing, "viewer")
  for (const path of ["/payouts", "/payout-destinations", `/payouts/${id}`]) {
    await viewer.goto(dashboard(world, path))
    expect(await changingForms(viewer), path).toEqual([])
  }
  await viewer.goto(dashboard(world, "/payouts"))
  await checkPage(viewer, `${world.name}-viewer-payouts`)
  await viewing.close()
}
