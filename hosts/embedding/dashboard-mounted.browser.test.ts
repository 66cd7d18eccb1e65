// The merchant dashboard's must-show again, mounted: an Express app with its own sign-in and session
// cookie mounts the kit at /payments and supplies `dashboard.authenticate`, so the platform, not the
// kit, decides who the merchant is. The same browser flow as the standalone host's runs against it.
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import express from "express"
import type { Browser, BrowserContext } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { closeServer, freePort, hasChromium, launchChromium, startMerchantSite } from "../../testing/browser/browser-fixtures.js"
import { type DashboardWorld, ownerFlow, viewerFlow } from "../../testing/browser/dashboard-flow.js"
import { addSecondGateway, onboardMerchant, strangerPayment } from "../../testing/browser/dashboard-setup.js"
import { createMerchantPayments, type MerchantPayments } from "./create-merchant-payments.js"
import type { PlatformIdentity } from "../../adapters/http/dashboard/dashboard-settings.js"

if (!hasChromium) console.warn("Mounted dashboard browser test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")

const ADMIN_TOKEN = `adm_${randomBytes(24).toString("hex")}`

describe.skipIf(!hasChromium)("merchant dashboard mounted under /payments with the platform's own sign-in (Chromium, Express)", () => {
  let workDir = ""
  let payments: MerchantPayments | undefined
  let app: Server | undefined
  let site: { server: Server; url: string } | undefined
  let browser: Browser | undefined
  let world: DashboardWorld
  let merchantId = 0
  // The platform's own sessions: its cookie names one, the platform knows whose it is.
  const sessions = new Map<string, PlatformIdentity>()

  const platformSession = (request: IncomingMessage) => /(?:^|;\s*)shop_session=([A-Za-z0-9]+)/.exec(request.headers.cookie ?? "")?.[1]

  /** The platform's sign-in: a person of the shop signs in as owner or viewer and lands on the dashboard. */
  const signIn = async (context: BrowserContext, role: "owner" | "viewer") => {
    const page = await context.newPage()
    // Not signed in with the platform: the dashboard sends the visitor to the platform's sign-in.
    await page.goto(`${world.base}/dashboard`)
    expect(new URL(page.url()).pathname).toBe("/login")
    await page.getByRole("button", { name: `Sign in as ${role}` }).click()
    await page.waitForURL((url) => url.pathname === "/payments/dashboard")
    return page
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "mp-dashboard-mounted-"))
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    payments = await createMerchantPayments({
      database: `sqlite:${join(workDir, "payments.db")}`,
      masterKey: randomBytes(32).toString("hex"),
      adminToken: ADMIN_TOKEN,
      baseUrl: origin,
      basePath: "/payments",
      webhooks: { allowPrivateTargets: true },
      logging: false,
      dashboard: {
        authenticate: (request) => sessions.get(platformSession(request) ?? "") ?? null,
        signInUrl: "/login"
      }
    })
    const shop = express()
    shop.use("/payments", payments.handler)
    shop.get("/login", (_request, response) => {
      response.type("html").send(`<!doctype html><html lang="en"><title>Shop sign-in</title><main><h1>Shop</h1>${
        ["owner", "viewer"].map((role) => `<form method="post" action="/login"><input type="hidden" name="role" value="${role}"><button>Sign in as ${role}</button></form>`).join("")
      }</main></html>`)
    })
    shop.post("/login", express.urlencoded({ extended: false }), (request, response) => {
      const id = randomBytes(16).toString("hex")
      sessions.set(id, { merchantId, userId: `shop-user-${request.body.role}`, role: request.body.role === "viewer" ? "viewer" : "owner" })
      response.cookie("shop_session", id, { httpOnly: true, sameSite: "lax" })
      response.redirect(303, "/payments/dashboard")
    })
    app = createServer(shop)
    await new Promise<void>((resolve) => app!.listen(port, "127.0.0.1", resolve))
    expect((app.address() as AddressInfo).port).toBe(port)
    site = await startMerchantSite()
    browser = await launchChromium()
    const admin = { base: `${origin}/payments`, adminToken: ADMIN_TOKEN }
    const merchant = await onboardMerchant(admin, "Mounted Shop")
    merchantId = merchant.id
    await adminGateways(admin)
    world = {
      base: admin.base,
      basePath: "/payments",
      adminToken: ADMIN_TOKEN,
      merchantId,
      credentials: merchant.credentials,
      merchantSite: site.url,
      strangerTrxId: await strangerPayment({ base: admin.base, basePath: "/payments", adminToken: ADMIN_TOKEN, merchantSite: site.url }),
      browser,
      name: "mounted",
      signIn
    }
  }, 60_000)

  /** Two USD sandbox gateways: the kit's simulator under two names. */
  const adminGateways = async (admin: { base: string; adminToken: string }) => {
    await addSecondGateway(admin)
    await addSecondGateway(admin)
  }

  afterAll(async () => {
    await browser?.close()
    await closeServer(site?.server)
    await closeServer(app)
    await payments?.close()
    if (workDir !== "") rmSync(workDir, { recursive: true, force: true })
  })

  it("the platform's owner refunds half once, redelivers, rolls the secret, narrows API Config; its viewer sees no form", async () => {
    const { trxId } = await ownerFlow(world)
    await viewerFlow(world, trxId)
  }, 300_000)
})
