// Hosted checkout in a real browser: Debian's Chromium driven by playwright-core (no downloaded
// browsers) against the standalone host in this process on SQLite, with a tiny local "merchant site"
// to land on. Skipped, with a line saying so, where /usr/bin/chromium is not installed.
import { createHmac, randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import type { Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { startServer, type RunningServer } from "./server.js"
import { closeServer, freePort, hasChromium, launchChromium, SHOT_DIR, startMerchantSite } from "../../testing/browser/browser-fixtures.js"
import { expectNoSideways, expectTapTargets, expectTrxOnOneLine } from "../../testing/browser/page-checks.js"

if (!hasChromium) console.warn("Browser checkout test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")


interface Session {
  readonly payment_url: string
  readonly info: {
    readonly trx_id: string
    readonly ref_trx: string
    readonly merchant_name: string
    readonly merchant_payment_method_codes: ReadonlyArray<string>
  }
}
interface Verified {
  readonly status: string
  readonly amount: number
  readonly fee: number
  readonly net_amount: number
}

describe.skipIf(!hasChromium)("hosted checkout in a real browser (Chromium, SQLite)", () => {
  let workDir: string
  let host: RunningServer | undefined
  let merchant: { server: Server; url: string } | undefined
  let browser: Browser | undefined

  const api = () => host!
  const merchantUrl = () => merchant!.url

  /** A merchant API call signed as the spec says: HMAC-SHA256 over `<ts>.<METHOD>.<path>.<body>`. */
  const signed = async <T>(method: "GET" | "POST", path: string, body = ""): Promise<T> => {
    const demo = api().demo!
    const timestamp = String(Math.floor(Date.now() / 1000))
    const signature = createHmac("sha256", demo.client_secret).update(`${timestamp}.${method}.${path}.${body}`).digest("hex")
    const response = await fetch(api().url + path, {
      method,
      ...(method === "POST" ? { body } : {}),
      headers: {
        "content-type": "application/json",
        "X-Environment": "sandbox",
        "X-Merchant-Key": demo.merchant_key,
        "X-API-Key": demo.api_key,
        "X-Timestamp": timestamp,
        "X-Signature": `sha256=${signature}`
      }
    })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
    return JSON.parse(text) as T
  }

  const initiate = () =>
    signed<Session>("POST", "/api/v1/initiate-payment", JSON.stringify({
      payment_amount: 100,
      currency_code: "USD",
      ref_trx: `browser-${randomUUID()}`,
      description: "Browser checkout test",
      success_redirect: `${merchantUrl()}/ok?order=42`,
      cancel_redirect: `${merchantUrl()}/cancel`,
      ipn_url: `${merchantUrl()}/ipn`
    }))

  const verify = (trxId: string) => signed<Verified>("GET", `/api/v1/verify-payment/${trxId}`)

  const newPage = async (options: BrowserContextOptions = {}): Promise<Page> => (await browser!.newContext(options)).newPage()

  /** Opens the link and checks what the customer must see before choosing anything. */
  const openCheckout = async (page: Page, session: Session) => {
    const response = await page.goto(session.payment_url)
    expect(response?.status()).toBe(200)
    const text = await page.locator("main").innerText()
    expect(text).toContain(session.info.merchant_name)
    expect(session.info.merchant_name).toBe("Demo Store")
    await expect.poll(() => page.getByTestId("amount").innerText()).toBe("100.00 USD")
    expect(await page.getByRole("status").innerText()).toContain("Test mode")
  }

  /** The merchant's page with the payment named in the query, as checkout sends the customer back. */
  const backAt = (path: string, session: Session) =>
    `${merchantUrl()}${path}${path.includes("?") ? "&" : "?"}${new URLSearchParams({ trx_id: session.info.trx_id, ref_trx: session.info.ref_trx })}`

  /** Chooses the sandbox gateway, presses its Pay button, and waits for the merchant's success page. */
  const payThrough = async (page: Page, session: Session) => {
    const code = session.info.merchant_payment_method_codes[0]!
    await page.getByTestId(`gateway-${code}`).click()
    await page.getByTestId("pay").waitFor()
    expect(await page.getByTestId("amount").innerText()).toBe("100.00 USD")
    await page.getByTestId("pay").click()
    await page.waitForURL(backAt("/ok?order=42", session))
    expect(await page.getByTestId("merchant-page").innerText()).toBe("Payment successful")
  }

  const expectPaid = async (trxId: string) => {
    const result = await verify(trxId)
    expect(result.status).toBe("success")
    expect(result.amount).toBe(100)
    // The demo merchant charges 2.9 % + 0.30: 2.90 + 0.30 = 3.20 on 100.
    expect(result.fee).toBe(3.2)
    expect(result.net_amount).toBe(96.8)
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "mp-checkout-browser-"))
    const dataDir = join(workDir, "data")
    mkdirSync(dataDir)
    // PORT "0" alone would do for the API, but the host derives its default BASE_URL from the
    // configured port, so checkout links (and the gateway's return form) would point at port 0.
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
    merchant = await startMerchantSite()
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await closeServer(merchant?.server)
    await host?.close()
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true })
  })

  it("pays with the sandbox gateway, lands on the merchant's success page, and verifies as success", async () => {
    expect(api().demo).toBeDefined()
    const session = await initiate()
    expect((await verify(session.info.trx_id)).status).toBe("pending")
    const page = await newPage()
    await openCheckout(page, session)
    await payThrough(page, session)
    await expectPaid(session.info.trx_id)
    // The link of a paid payment now sends the customer straight back to the merchant.
    await page.goto(session.payment_url)
    expect(page.url()).toBe(backAt("/ok?order=42", session))
    await page.context().close()
  })

  it("cancelling in the browser lands on the merchant's cancel page and fails the payment", async () => {
    const session = await initiate()
    const page = await newPage()
    await openCheckout(page, session)
    await page.getByTestId("cancel-checkout").click()
    await page.waitForURL(backAt("/cancel", session))
    expect(await page.getByTestId("merchant-page").innerText()).toBe("Payment cancelled")
    expect((await verify(session.info.trx_id)).status).toBe("failed")
    await page.context().close()
  })

  it("pays with JavaScript disabled in the browser (plain forms)", async () => {
    const session = await initiate()
    const page = await newPage({ javaScriptEnabled: false })
    await openCheckout(page, session)
    await payThrough(page, session)
    await expectPaid(session.info.trx_id)
    await page.context().close()
  })

  /** A phone-sized page (not `isMobile`: that widens the layout viewport to fit overflowing content, hiding it). */
  const PHONE = { width: 390, height: 844 }
  const DESKTOP = { width: 1280, height: 800 }
  const sizedPage = (viewport: { width: number; height: number }) => newPage({ viewport, deviceScaleFactor: viewport === PHONE ? 2 : 1 })

  const screenshot = (page: Page, name: string) => {
    mkdirSync(SHOT_DIR, { recursive: true })
    return page.screenshot({ path: join(SHOT_DIR, name), fullPage: true })
  }

  for (const [name, viewport] of [["phone", PHONE], ["desktop", DESKTOP]] as const) {
    it(`the checkout page at ${viewport.width}x${viewport.height}: a heading, method buttons, the expiry, no sideways scroll, 44 px targets`, async () => {
      const session = await initiate()
      const page = await sizedPage(viewport)
      await openCheckout(page, session)
      expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Choose how to pay")
      const method = page.getByRole("button", { name: "Sandbox card" })
      expect(await method.count()).toBe(1)
      expect(await page.locator("time[datetime]").getAttribute("datetime")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
      expect(await page.getByTestId("expiry").innerText()).toMatch(/^This payment link expires in \d+ minutes, at \d{2}:\d{2} UTC on \d{1,2} \w+ \d{4}\.$/)
      await screenshot(page, `checkout-${name}.png`)
      await expectNoSideways(page, viewport.width)
      await expectTapTargets(page)
      await page.context().close()
    })

    it(`the sandbox gateway page at ${viewport.width}x${viewport.height}: Pay primary, Decline and Cancel alike, trx id unbroken`, async () => {
      const session = await initiate()
      const page = await sizedPage(viewport)
      await openCheckout(page, session)
      await page.getByTestId(`gateway-${session.info.merchant_payment_method_codes[0]!}`).click()
      await page.getByTestId("pay").waitFor()
      await screenshot(page, `gateway-${name}.png`)
      await expectNoSideways(page, viewport.width)
      await expectTapTargets(page)
      await expectTrxOnOneLine(page)
      const look = (testId: string) =>
        page.getByTestId(testId).evaluate((element: any) => {
          const style = (globalThis as any).getComputedStyle(element)
          const box = element.getBoundingClientRect()
          return { background: String(style.backgroundColor), radius: String(style.borderRadius), height: Number(box.height), width: Number(box.width) }
        })
      const [pay, decline, cancel] = [await look("pay"), await look("decline"), await look("cancel")]
      expect(decline).toEqual(cancel)
      expect([pay.height, pay.width, pay.radius]).toEqual([decline.height, decline.width, decline.radius])
      expect(pay.background).not.toBe(decline.background)
      await page.context().close()
    })
  }
})
