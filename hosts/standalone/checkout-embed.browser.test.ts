// Hosted checkout framed by a merchant's page, and a declined try the customer recovers from, in
// Debian's Chromium (playwright-core) against the standalone host on SQLite. The framing pages are
// https (the rule admits https origins only): two loopback servers of this test's own, on two ports
// (two origins), with a self-signed certificate made by openssl for the run; Chromium is told to
// accept it. Screenshots at 390 and 1280 px are kept; axe-core checks each page shown.
import { execFileSync } from "node:child_process"
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import type { AddressInfo } from "node:net"
import { createServer, type Server } from "node:https"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, BrowserContextOptions, Frame, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { readHostConfig } from "../embedding/host-config.js"
import { startServer, type RunningServer } from "./server.js"
import { closeServer, freePort, hasChromium, launchChromium, SHOT_DIR, startMerchantSite } from "../../testing/browser/browser-fixtures.js"
import { signedOk } from "../../testing/hosts/demo-fixtures.js"

if (!hasChromium) console.warn("Browser checkout-embed test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js")
const WIDTHS = [390, 1280] as const

interface Session {
  readonly payment_url: string
  readonly info: { readonly trx_id: string; readonly ref_trx: string; readonly merchant_payment_method_codes: ReadonlyArray<string> }
}

/** A storefront page over https that frames `?src=` and keeps every message it receives. */
const startFramingSite = (key: string, cert: string) =>
  new Promise<{ server: Server; origin: string }>((resolve) => {
    const server = createServer({ key, cert }, (request, response) => {
      const src = new URL(request.url ?? "/", "https://shop.invalid").searchParams.get("src") ?? "about:blank"
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Storefront</title><style>body{font-family:sans-serif;margin:0}iframe{border:0;width:100%;height:760px}</style></head>
<body><main><h1>Storefront checkout</h1><iframe id="checkout" title="Payment" src="${src.replace(/"/g, "&quot;")}"></iframe></main>
<script>window.received = []; addEventListener("message", (event) => window.received.push({ origin: event.origin, data: event.data }))</script>
</body></html>`)
    })
    server.listen(0, "127.0.0.1", () => resolve({ server, origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

/** axe-core's serious and critical findings in a page or frame (its CSP bypassed by the context, to inject axe). */
const seriousViolations = async (target: Page | Frame) => {
  await target.addScriptTag({ path: AXE })
  const all = await target.evaluate<ReadonlyArray<{ id: string; impact: string | null }>>(
    "axe.run(document).then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact })))"
  )
  return all.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
}

describe.skipIf(!hasChromium)("hosted checkout framed by a merchant and recovered after a decline (Chromium)", () => {
  let workDir = ""
  let host: RunningServer | undefined
  let merchant: { server: import("node:http").Server; url: string } | undefined
  let allowed: { server: Server; origin: string } | undefined
  let stranger: { server: Server; origin: string } | undefined
  let browser: Browser | undefined

  const signed = <T>(method: "GET" | "POST", path: string, body = ""): Promise<T> => signedOk<T>(host!.url, host!.demo!, method, path, body)

  const initiate = () =>
    signed<Session>("POST", "/api/v1/initiate-payment", JSON.stringify({
      payment_amount: 100, currency_code: "USD", ref_trx: `embed-${randomUUID()}`, description: "Framed checkout test",
      success_redirect: `${merchant!.url}/ok`, cancel_redirect: `${merchant!.url}/cancel`, ipn_url: `${merchant!.url}/ipn`
    }))

  const verify = (trxId: string) => signed<{ status: string }>("GET", `/api/v1/verify-payment/${trxId}`)

  const newPage = async (options: BrowserContextOptions = {}) => (await browser!.newContext({ ignoreHTTPSErrors: true, ...options })).newPage()

  const screenshot = (page: Page, name: string) => {
    mkdirSync(SHOT_DIR, { recursive: true })
    return page.screenshot({ path: join(SHOT_DIR, name), fullPage: true })
  }

  /** The storefront page of `site` framing `url`, and its checkout frame once loaded. */
  const openFramed = async (page: Page, site: { origin: string }, url: string) => {
    await page.goto(`${site.origin}/?src=${encodeURIComponent(url)}`)
    await page.locator("iframe#checkout").waitFor()
    const frame = page.frame({ url: (frameUrl) => frameUrl.href.startsWith(host!.url) || frameUrl.protocol === "chrome-error:" })
    return { frame: frame ?? page.frames()[1]! }
  }

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), "mp-checkout-embed-"))
    const dataDir = join(workDir, "data")
    mkdirSync(dataDir)
    execFileSync("openssl", [
      "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
      "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", join(workDir, "key.pem"), "-out", join(workDir, "cert.pem")
    ], { stdio: "ignore" })
    const [key, cert] = [readFileSync(join(workDir, "key.pem"), "utf8"), readFileSync(join(workDir, "cert.pem"), "utf8")]
    const port = await freePort()
    host = await startServer(readHostConfig({
      PORT: String(port), HOST: "127.0.0.1", BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: dataDir, DEMO: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true"
    }))
    merchant = await startMerchantSite()
    allowed = await startFramingSite(key, cert)
    stranger = await startFramingSite(key, cert)
    const answer = await fetch(`${host.url}/admin/v1/merchants/${host.demo!.merchant_id}/checkout-frame-ancestors`, {
      method: "PUT",
      headers: { authorization: `Bearer ${host.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ checkout_frame_ancestors: [allowed.origin] })
    })
    expect(answer.status, await answer.text()).toBe(200)
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    for (const site of [allowed, stranger]) await closeServer(site?.server as unknown as import("node:http").Server | undefined)
    await closeServer(merchant?.server)
    await host?.close()
    if (workDir !== "") rmSync(workDir, { recursive: true, force: true })
  })

  for (const width of WIDTHS) {
    it(`at ${width} px: the storefront's own origin frames checkout, pays with the sandbox, and is told how it ended`, async () => {
      const session = await initiate()
      const page = await newPage({ viewport: { width, height: 900 } })
      const { frame } = await openFramed(page, allowed!, session.payment_url)
      await frame.getByTestId(`gateway-${session.info.merchant_payment_method_codes[0]!}`).click()
      await frame.getByTestId("pay").click()
      await frame.getByTestId("checkout-ended").waitFor()
      await expect.poll(() => page.evaluate("window.received")).toEqual([{
        origin: host!.url,
        data: { type: "merchant-payments.checkout", status: "success", trx_id: session.info.trx_id }
      }])
      expect((await verify(session.info.trx_id)).status).toBe("success")
      // Without the script the customer still has the way on, in the whole window.
      expect(await frame.getByTestId("return-to-merchant").getAttribute("target")).toBe("_top")
      await screenshot(page, `checkout-embedded-${width}.png`)
      await page.context().close()

      // axe in the frame's last page (CSP bypassed only to inject axe: the frame stays the listed origin's).
      const checked = await newPage({ viewport: { width, height: 900 }, bypassCSP: true })
      const reopened = await openFramed(checked, allowed!, session.payment_url)
      await reopened.frame.getByTestId("checkout-ended").waitFor()
      expect(await seriousViolations(reopened.frame)).toEqual([])
      await checked.context().close()
    })
  }

  it("a page of another origin cannot frame the checkout: the frame does not render and nothing is posted", async () => {
    const session = await initiate()
    const page = await newPage()
    const refused: Array<string> = []
    page.on("console", (message) => refused.push(message.text()))
    const { frame } = await openFramed(page, stranger!, session.payment_url)
    await frame.waitForLoadState().catch(() => undefined)
    await expect.poll(() => refused.some((text) => text.includes("frame-ancestors"))).toBe(true)
    expect(await frame.locator("[data-testid=amount]").count()).toBe(0)
    expect(await page.evaluate("window.received")).toEqual([])
    // The same link opened on its own is still the checkout.
    const own = await newPage()
    await own.goto(session.payment_url)
    expect(await own.getByTestId("amount").innerText()).toBe("100.00 USD")
    await own.context().close()
    await page.context().close()
  })

  for (const width of WIDTHS) {
    it(`at ${width} px: a declined try returns to the choice with the reason; paying then lands on success_redirect and verifies`, async () => {
      const session = await initiate()
      const page = await newPage({ viewport: { width, height: 900 } })
      await page.goto(session.payment_url)
      const method = page.getByTestId(`gateway-${session.info.merchant_payment_method_codes[0]!}`)
      await method.click()
      await page.getByTestId("decline").click()
      await page.getByTestId("declined").waitFor()
      expect(page.url()).toBe(session.payment_url)
      expect(await page.getByRole("alert").innerText()).toBe("Sandbox card declined the payment and nothing was charged. Try again or choose another payment method.")
      expect((await verify(session.info.trx_id)).status).toBe("pending")
      await screenshot(page, `checkout-declined-${width}.png`)
      // A reload of the step the browser last posted to says the same, never "not valid".
      await page.goto(`${session.payment_url}/pay`)
      expect(await page.getByTestId("declined").count()).toBe(1)
      await page.getByTestId(`gateway-${session.info.merchant_payment_method_codes[0]!}`).click()
      await page.getByTestId("pay").click()
      await page.waitForURL(`${merchant!.url}/ok?${new URLSearchParams({ trx_id: session.info.trx_id, ref_trx: session.info.ref_trx })}`)
      expect(await page.getByTestId("merchant-page").innerText()).toBe("Payment successful")
      expect((await verify(session.info.trx_id)).status).toBe("success")
      await page.context().close()

      const checked = await newPage({ viewport: { width, height: 900 }, bypassCSP: true })
      const second = await initiate()
      await checked.goto(second.payment_url)
      await checked.getByTestId(`gateway-${second.info.merchant_payment_method_codes[0]!}`).click()
      await checked.getByTestId("decline").click()
      await checked.getByTestId("declined").waitFor()
      expect(await seriousViolations(checked)).toEqual([])
      await checked.context().close()
    })
  }
})
