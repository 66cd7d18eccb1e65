// Hosted checkout in a real browser: Debian's Chromium driven by playwright-core (no downloaded
// browsers) against the standalone host in this process on SQLite, with a tiny local "merchant site"
// to land on. Skipped, with a line saying so, where /usr/bin/chromium is not installed.
import { createHmac, randomUUID } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { createServer as createTcpServer, type AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type Browser, type BrowserContextOptions, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readHostConfig } from "./host-config.js"
import { startServer, type RunningServer } from "./server.js"

const CHROMIUM = "/usr/bin/chromium"
const hasChromium = existsSync(CHROMIUM)
if (!hasChromium) console.warn("Browser checkout test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")

/** Set to a directory to keep the phone screenshots; otherwise they go to the temp dir, removed at the end. */
const SHOT_DIR = process.env["CHECKOUT_SCREENSHOT_DIR"]

interface Session {
  readonly payment_url: string
  readonly info: { readonly trx_id: string; readonly merchant_name: string; readonly merchant_payment_method_codes: ReadonlyArray<string> }
}
interface Verified {
  readonly status: string
  readonly amount: number
  readonly fee: number
  readonly net_amount: number
}

/** A port the kernel just handed out, released before the host binds it (small race, fine here). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createTcpServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const port = (probe.address() as AddressInfo).port
      probe.close(() => resolve(port))
    })
  })

/** The merchant's site: the two pages checkout sends the customer back to, and an IPN sink. */
const startMerchantSite = () =>
  new Promise<{ server: Server; url: string }>((resolve) => {
    const server = createServer((request, response) => {
      const path = new URL(request.url ?? "/", "http://merchant.invalid").pathname
      const which = path === "/ok" ? "Payment successful" : path === "/cancel" ? "Payment cancelled" : undefined
      request.resume()
      if (which === undefined) {
        response.writeHead(path === "/ipn" ? 200 : 404, { "content-type": "text/plain" }).end("ok")
        return
      }
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(`<!doctype html><title>Merchant: ${which}</title><h1 data-testid="merchant-page">${which}</h1>`)
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

const closeServer = (server: Server | undefined) =>
  new Promise<void>((resolve) => {
    if (server === undefined) return resolve()
    server.close(() => resolve())
    server.closeAllConnections()
  })

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
      success_redirect: `${merchantUrl()}/ok`,
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

  /** Chooses the sandbox gateway, presses its Pay button, and waits for the merchant's success page. */
  const payThrough = async (page: Page, session: Session) => {
    const code = session.info.merchant_payment_method_codes[0]!
    await page.getByTestId(`gateway-${code}`).click()
    await page.getByTestId("pay").waitFor()
    expect(await page.getByTestId("amount").innerText()).toBe("100.00 USD")
    await page.getByTestId("pay").click()
    await page.waitForURL(`${merchantUrl()}/ok`)
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
      DEMO: "true"
    }))
    merchant = await startMerchantSite()
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    })
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
    expect(page.url()).toBe(`${merchantUrl()}/ok`)
    await page.context().close()
  })

  it("cancelling in the browser lands on the merchant's cancel page and fails the payment", async () => {
    const session = await initiate()
    const page = await newPage()
    await openCheckout(page, session)
    await page.getByTestId("cancel-checkout").click()
    await page.waitForURL(`${merchantUrl()}/cancel`)
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
  const phonePage = () => newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2 })

  /** The page's own widths; `document`/`window` are the page's, not this file's (no DOM lib here), hence the string. */
  const widths = (page: Page) =>
    page.evaluate<{ scrollWidth: number; innerWidth: number }>("({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })")

  const screenshot = (page: Page, name: string) => {
    const directory = SHOT_DIR ?? workDir
    mkdirSync(directory, { recursive: true })
    return page.screenshot({ path: join(directory, name), fullPage: true })
  }

  it("fits a phone screen in the browser (390x844) without horizontal scrolling", async () => {
    const session = await initiate()
    const page = await phonePage()
    await openCheckout(page, session)
    await screenshot(page, "checkout-phone.png")
    const { scrollWidth, innerWidth } = await widths(page)
    expect(innerWidth).toBe(390)
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
    await page.context().close()
  })

  // KNOWN BUG, pinned down here so it stays visible: on the sandbox gateway's page the simulator note
  // prints the trx id ("SANDBOX_" + 26 characters) in <strong> with no break opportunity, and the
  // The trx id on the sandbox form is one long word: the page style must let it wrap.
  it("the sandbox gateway page fits a 390 px phone screen", async () => {
    const session = await initiate()
    const page = await phonePage()
    await openCheckout(page, session)
    await page.getByTestId(`gateway-${session.info.merchant_payment_method_codes[0]!}`).click()
    await page.getByTestId("pay").waitFor()
    await screenshot(page, "gateway-phone.png")
    const { scrollWidth, innerWidth } = await widths(page)
    expect(innerWidth).toBe(390)
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth)
    await page.context().close()
  })
})
