// The customer portal's must-show (issue 36 item 5), in Debian's Chromium through playwright-core on
// the standalone host (SQLite, demo merchant): a merchant opens a portal link for its customer; the
// customer pays the open invoice through the sandbox checkout, sees the subscription active, cancels
// at period end, and cannot open the link twice; with nothing to pay, another customer replaces a saved
// card through the sandbox setup page. Every portal page is checked at 390 and 1280 px
// (axe-core: no serious or critical violation; nothing wider than the screen; 44 px targets; Tab
// reaches everything), with its screenshots kept in artifacts/screenshots (customer-portal-*.png).
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { startServer, type RunningServer } from "./server.js"
import { closeServer, freePort, hasChromium, launchChromium, startMerchantSite } from "../../testing/browser/browser-fixtures.js"
import { checkPage } from "../../testing/browser/dashboard-checks.js"
import { signedCall } from "../../testing/hosts/demo-fixtures.js"

if (!hasChromium) console.warn("Browser customer portal test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")

interface SubscriptionData {
  readonly id: string
  readonly status: string
  readonly cancel_at_period_end: boolean
  readonly latest_invoice: { readonly id: string; readonly status: string; readonly trx_id: string; readonly payment_url: string }
}

describe.skipIf(!hasChromium)("customer portal in a real browser (Chromium, standalone host)", () => {
  let workDir = ""
  let host: RunningServer | undefined
  let site: { server: Server; url: string } | undefined
  let browser: Browser | undefined
  let context: BrowserContext | undefined

  /** A signed sandbox call as the demo merchant; anything but 200 or 201 fails the test with the answer. */
  const signed = async <T>(method: "GET" | "POST", path: string, body?: unknown): Promise<T> => {
    const answered = await signedCall(host!.url, host!.demo!, method, path, body === undefined ? {} : { body })
    if (answered.status !== 200 && answered.status !== 201) throw new Error(`${method} ${path} answered ${answered.status}: ${answered.text}`)
    return answered.json as T
  }

  const subscribe = (email: string, description: string) =>
    signed<{ data: SubscriptionData }>("POST", "/api/v1/subscriptions", {
      external_reference: `portal-${randomUUID()}`, billing_cycle: "monthly", payment_amount: "19.99", currency_code: "USD",
      customer_email: email, customer_name: "Ada Customer", description,
      success_redirect: `${site!.url}/ok`, cancel_redirect: `${site!.url}/cancel`, ipn_url: `${site!.url}/ipn`
    }).then((answer) => answer.data)

  const portalLink = (email: string) =>
    signed<{ data: { url: string; expires_at: string } }>("POST", "/api/v1/customer-portal-sessions", {
      customer_email: email, return_url: `${site!.url}/account`
    }).then((answer) => answer.data)

  const subscription = (id: string) => signed<{ data: SubscriptionData }>("GET", `/api/v1/subscriptions/${id}`).then((answer) => answer.data)

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "mp-portal-browser-"))
    const dataDir = join(workDir, "data")
    mkdirSync(dataDir)
    const port = await freePort()
    host = await startServer(readHostConfig({
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DEMO: "true",
      // The merchant site (and its IPN sink) listens on loopback.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
    }))
    site = await startMerchantSite()
    browser = await launchChromium()
    // The portal's CSP allows no foreign script: the test's context bypasses it to inject axe-core.
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
  })

  afterAll(async () => {
    await context?.close()
    await browser?.close()
    await closeServer(site?.server)
    await host?.close()
    if (workDir !== "") rmSync(workDir, { recursive: true, force: true })
  })

  const status = (page: Page) => page.getByTestId("subscription-status").innerText()

  it("pays an open invoice through the sandbox checkout, sees it active, cancels at period end; the link opens once", async () => {
    const plan = await subscribe("ada@customer.example", "Pro plan")
    // Another customer of the same merchant: never on Ada's portal.
    await subscribe("bob@customer.example", "Bob's team plan")
    expect(plan.status).toBe("pending")
    const link = await portalLink("ada@customer.example")
    const page = await context!.newPage()

    // The link's visit lands on the portal's own address: the token is gone from the address bar.
    await page.goto(link.url)
    expect(page.url()).toBe(`${host!.url}/customer-portal`)
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Your subscriptions")
    expect(await page.getByTestId("customer").innerText()).toBe("Billing for ada@customer.example")
    expect(await page.getByTestId("subscription").count()).toBe(1)
    expect(await page.locator("main").innerText()).not.toContain("Bob's team plan")
    expect(await status(page)).toBe("Awaiting first payment")
    expect(await page.getByRole("status").first().innerText()).toContain("Test mode")
    await checkPage(page, "open-invoice", "customer-portal")

    // Pay: on to the invoice's hosted checkout, the sandbox card, then the merchant's success page.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole("button", { name: "Pay 19.99 USD" }).click()
    await page.waitForURL(/\/checkout\//)
    expect(await page.getByTestId("amount").innerText()).toBe("19.99 USD")
    await page.locator("button.method").first().click()
    await page.getByTestId("pay").click()
    await page.waitForURL((url) => url.pathname === "/ok")
    expect(await page.getByTestId("merchant-page").innerText()).toBe("Payment successful")
    expect((await subscription(plan.id)).status).toBe("active")

    // Back on the portal (the session cookie lasts its hour): active, the invoice paid, nothing to pay.
    await page.goto(`${host!.url}/customer-portal`)
    expect(await status(page)).toBe("Active")
    expect(await page.getByTestId("invoice").first().getAttribute("data-status")).toBe("paid")
    expect(await page.getByTestId("pay-invoice").count()).toBe(0)
    await checkPage(page, "active", "customer-portal")

    // Cancel at period end: the subscription stays active until its period ends, and the page says so.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByRole("button", { name: "Cancel at period end" }).click()
    await page.waitForURL(/\/customer-portal\?notice=cancelled$/)
    expect(await page.getByTestId("notice").innerText()).toBe("Your subscription will end at the end of the current period.")
    expect(await status(page)).toMatch(/^Active, ends on \d{1,2} \w+ \d{4}$/)
    expect(await page.getByTestId("cancel-subscription").count()).toBe(0)
    const cancelled = await subscription(plan.id)
    expect([cancelled.status, cancelled.cancel_at_period_end]).toEqual(["active", true])
    await checkPage(page, "ending", "customer-portal")

    // The way back to the merchant.
    await page.getByRole("link", { name: "Return to Demo Store" }).click()
    await page.waitForURL(`${site!.url}/account`)

    // The same link a second time: refused with a page that says why and leads back to the merchant.
    const again = await page.goto(link.url)
    expect(again?.status()).toBe(410)
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("This link was already used")
    expect(await page.getByRole("link", { name: "Return to Demo Store" }).getAttribute("href")).toBe(`${site!.url}/account`)
    await checkPage(page, "link-used", "customer-portal")
    await page.close()
  })

  it("in French and Arabic (right to left) the portal is as clean at both widths", async () => {
    await subscribe("zoe@customer.example", "Formule Pro")
    for (const locale of ["fr", "ar"] as const) {
      const link = await portalLink("zoe@customer.example")
      const page = await context!.newPage()
      await page.goto(`${link.url}?locale=${locale}`)
      expect(page.url()).toBe(`${host!.url}/customer-portal?locale=${locale}`)
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr")
      await checkPage(page, `open-invoice-${locale}`, "customer-portal")
      await page.close()
    }
  })

  it("with nothing to pay, Update payment method replaces the saved card on the sandbox setup page, clean at both widths", async () => {
    const plan = await subscribe("cy@customer.example", "Team plan")
    const page = await context!.newPage()
    // The first invoice paid with a test card the sandbox saves for renewals.
    await page.goto(plan.latest_invoice.payment_url)
    await page.locator("button.method").first().click()
    await page.getByTestId("pay-card-decline").click()
    await page.waitForURL((url) => url.pathname === "/ok")

    await page.goto((await portalLink("cy@customer.example")).url)
    expect(await page.getByTestId("payment-method").innerText()).toBe("Visa ending in 9995, expires 12/2034")
    await page.getByTestId("update-payment-method").click()
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Replace your payment method")
    expect(await page.getByTestId("setup-explained").innerText()).toContain("Nothing is charged now")
    await checkPage(page, "method-setup", "customer-portal")

    await page.setViewportSize({ width: 1280, height: 900 })
    await page.getByTestId("save-card-success").click()
    await page.waitForURL(/\/customer-portal\?notice=methodUpdated$/)
    expect(await page.getByTestId("notice").innerText()).toBe("Your payment method was updated. The next payments of this subscription use it.")
    expect(await page.getByTestId("payment-method").innerText()).toBe("Visa ending in 4242, expires 12/2034")
    await checkPage(page, "method-updated", "customer-portal")

    // In French, the setup page speaks the customer's language too.
    await page.goto(`${host!.url}/customer-portal?locale=fr`)
    await page.getByTestId("update-payment-method").click()
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Remplacer votre moyen de paiement")
    await checkPage(page, "method-setup-fr", "customer-portal")
    await page.close()
  })
})
