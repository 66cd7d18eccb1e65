// The merchant dashboard's must-show, in Debian's Chromium through playwright-core, on the standalone
// host (SQLite) with the kit's own merchant users: an owner created through the admin API sets its
// password and signs in with the keyboard, then the shared flow (testing/browser/dashboard-flow.ts); a viewer
// sees the same pages with no form; then the Payouts section (testing/browser/payout-flow.ts) the Balances page (testing/browser/balance-flow.ts) the Disputes section (testing/browser/dispute-flow.ts) and the Logs page (testing/browser/request-log-flow.ts). Screenshots of every page at 390 and 1280 px are kept.
import { mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { startServer, type RunningServer } from "./server.js"
import { closeServer, freePort, hasChromium, launchChromium, startMerchantSite } from "../../testing/browser/browser-fixtures.js"
import { checkPage } from "../../testing/browser/dashboard-checks.js"
import { type DashboardWorld, ownerFlow, viewerFlow } from "../../testing/browser/dashboard-flow.js"
import { addSecondGateway, merchantUser, strangerPayment } from "../../testing/browser/dashboard-setup.js"
import { balanceFlow } from "../../testing/browser/balance-flow.js"
import { disputeFlow } from "../../testing/browser/dispute-flow.js"
import { payoutFlow } from "../../testing/browser/payout-flow.js"
import { testClockFlow } from "../../testing/browser/test-clock-flow.js"
import { sandboxMailFlow } from "../../testing/browser/sandbox-mail-flow.js"
import { requestLogFlow } from "../../testing/browser/request-log-flow.js"

if (!hasChromium) console.warn("Browser dashboard test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")

const PASSWORD = "correct horse battery staple"

describe.skipIf(!hasChromium)("merchant dashboard in a real browser (Chromium, standalone host, kit users)", () => {
  let workDir = ""
  let host: RunningServer | undefined
  let site: { server: Server; url: string } | undefined
  let browser: Browser | undefined
  let world: DashboardWorld
  const links = new Map<string, string>()

  const passwordSet = new Set<string>()

  /** The one-time link the first time (the sign-in page after), then the sign-in form, typed and sent with the keyboard alone. */
  const signIn = async (context: BrowserContext, role: "owner" | "viewer") => {
    const email = `${role}@shop.example`
    const page = await context.newPage()
    if (passwordSet.has(role)) {
      await page.goto(`${host!.url}/dashboard/login`)
    } else {
      await page.goto(links.get(role)!)
      if (role === "owner") await checkPage(page, "standalone-set-password")
      await page.getByLabel("New password").fill(PASSWORD)
      await page.getByRole("button", { name: "Set password" }).click()
      await page.waitForURL(/\/dashboard\/login\?password=set$/)
      passwordSet.add(role)
      if (role === "owner") await checkPage(page, "standalone-sign-in")
      // From the top of a freshly loaded page: the first Tab is the email field.
      await page.reload()
    }
    await page.keyboard.press("Tab")
    expect(await page.evaluate<string>("document.activeElement?.id ?? ''")).toBe("email")
    await page.keyboard.type(email)
    await page.keyboard.press("Tab")
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press("Enter")
    await page.waitForURL((url) => url.pathname === "/dashboard")
    return page
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "mp-dashboard-browser-"))
    const port = await freePort()
    host = await startServer(readHostConfig({
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: join(workDir, "data"),
      DEMO: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
    }))
    site = await startMerchantSite()
    browser = await launchChromium()
    const admin = { base: host.url, adminToken: host.adminToken }
    await addSecondGateway(admin)
    const merchantId = host.demo!.merchant_id
    links.set("owner", await merchantUser(admin, merchantId, "owner@shop.example", "owner"))
    links.set("viewer", await merchantUser(admin, merchantId, "viewer@shop.example", "viewer"))
    world = {
      base: host.url,
      basePath: "",
      adminToken: host.adminToken,
      merchantId,
      credentials: host.demo!,
      merchantSite: site.url,
      strangerTrxId: await strangerPayment({ base: host.url, basePath: "", adminToken: host.adminToken, merchantSite: site.url }),
      browser,
      name: "standalone",
      signIn
    }
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await closeServer(site?.server)
    await host?.close()
    if (workDir !== "") rmSync(workDir, { recursive: true, force: true })
  })

  it("an owner sets a password, signs in, refunds half once, redelivers, rolls the secret, narrows API Config; a viewer sees no form", async () => {
    const { trxId } = await ownerFlow(world)
    await viewerFlow(world, trxId)
  }, 300_000)

  it("an owner adds a bank account, is refused more than the balance, requests a payout once, deletes the account; a viewer sees no form", async () => {
    await payoutFlow(world)
  }, 300_000)

  it("an owner reads a payment pending for the payout delay with its date and a reserve held, and is offered only what is available; a viewer sees the same", async () => {
    await balanceFlow(world)
  }, 300_000)

  it("an owner finds a sandbox dispute, answers it with evidence once and reads what was sent; the payment names it; a viewer sees no form", async () => {
    await disputeFlow(world)
  }, 300_000)

  it("an owner creates a test clock, advances it a month past its subscription's renewal, is refused going back, deletes it; a viewer sees no form", async () => {
    await testClockFlow(world)
  }, 300_000)

  it("an owner finds a sandbox subscription's invoice mail and reads its text and HTML parts; a viewer sees the same, no form", async () => {
    await sandboxMailFlow(world)
  }, 300_000)

  it("an owner finds a call refused for its signature in Logs, narrows the list to 401s by keyboard and reads what the server signed; a viewer sees the same, no form", async () => {
    await requestLogFlow(world)
  }, 300_000)
})
