// The hosted checkout for the world, in Debian's Chromium through playwright-core: each language
// (English, French, Arabic right to left) chosen by Accept-Language or by the `locale` query, every
// checkout state checked by axe-core (injected from the dev dependency) at a phone's and a desktop's
// width, with no serious or critical violation, and a screenshot of each kept as an artefact.
import { randomUUID } from "node:crypto"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Locale, LOCALES } from "../../adapters/http/checkout/locale.js"
import { checkoutNotice } from "../../adapters/http/checkout/pages.js"
import { readHostConfig } from "../embedding/host-config.js"
import { startServer, type RunningServer } from "./server.js"
import { freePort, hasChromium, launchChromium, SHOT_DIR } from "../../testing/browser/browser-fixtures.js"
import { signedOk } from "../../testing/hosts/demo-fixtures.js"

if (!hasChromium) console.warn("Browser checkout-languages test SKIPPED: /usr/bin/chromium not found (apt-get install chromium)")

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js")
const WIDTHS = [390, 1280] as const

interface Violation {
  readonly id: string
  readonly impact: string | null
  readonly nodes: number
}

/** axe-core's serious and critical findings on the page as it stands. */
const seriousViolations = async (page: Page): Promise<ReadonlyArray<Violation>> => {
  await page.addScriptTag({ path: AXE })
  // A string, evaluated in the page: this project compiles without the DOM's types.
  const all = await page.evaluate<ReadonlyArray<Violation>>(
    "axe.run().then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })))"
  )
  return all.filter((violation) => violation.impact === "serious" || violation.impact === "critical")
}

describe.skipIf(!hasChromium)("hosted checkout in three languages (Chromium, axe-core)", () => {
  let workDir = ""
  let host: RunningServer | undefined
  let browser: Browser | undefined

  const signed = <T>(method: "GET" | "POST", path: string, body = ""): Promise<T> => signedOk<T>(host!.url, host!.demo!, method, path, body)
  const admin = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${host!.url}/admin/v1${path}`, {
      method, headers: { authorization: `Bearer ${host!.adminToken}`, "content-type": "application/json" }, body: JSON.stringify(body)
    })
    expect(response.status, await response.clone().text()).toBe(200)
  }
  /** A pending session of the largest kind of amount, so the page must keep every digit. */
  const initiate = () =>
    signed<{ payment_url: string }>("POST", "/api/v1/initiate-payment", JSON.stringify({
      payment_amount: "9876543210.98", currency_code: "USD", ref_trx: `world-${randomUUID()}`,
      success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: "https://shop.example/ipn"
    }))

  /** Opens `url` in `locale` (by Accept-Language), checks it in that language, runs axe, keeps a screenshot. */
  const check = async (state: string, locale: Locale, width: number, open: (page: Page) => Promise<void>) => {
    const context = await browser!.newContext({ viewport: { width, height: 900 }, locale, bypassCSP: true })
    const page = await context.newPage()
    try {
      await open(page)
      expect(await page.locator("html").getAttribute("lang")).toBe(locale)
      expect(await page.locator("html").getAttribute("dir")).toBe(locale === "ar" ? "rtl" : "ltr")
      await page.screenshot({ path: join(SHOT_DIR, `checkout-${state}-${locale}-${width}.png`), fullPage: true })
      expect(await seriousViolations(page), `${state} in ${locale} at ${width} px`).toEqual([])
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await page.evaluate<boolean>("document.documentElement.scrollWidth <= window.innerWidth")).toBe(true)
    } finally {
      await context.close()
    }
  }

  beforeAll(async () => {
    mkdirSync(SHOT_DIR, { recursive: true })
    workDir = mkdtempSync(join(tmpdir(), "mp-checkout-world-"))
    const port = await freePort()
    host = await startServer(readHostConfig({
      PORT: String(port), HOST: "127.0.0.1", BASE_URL: `http://127.0.0.1:${port}`, DATA_DIR: join(workDir, "data"),
      DEMO: "true", CLOCK: "manual", CHECKOUT_LIFETIME_MINUTES: "5"
    }))
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await host?.close()
    if (workDir !== "") rmSync(workDir, { recursive: true, force: true })
  })

  it("speaks the customer's language: Accept-Language, then ?locale= which wins and is carried in the page's forms", async () => {
    const session = await initiate()
    const context = await browser!.newContext({ locale: "fr-CA", extraHTTPHeaders: { "accept-language": "fr-CA,fr;q=0.9,en;q=0.5" } })
    const page = await context.newPage()
    await page.goto(session.payment_url)
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Choisissez votre moyen de paiement")
    expect((await page.getByTestId("amount").innerText()).replace(/\s/g, " ")).toBe("9 876 543 210,98 USD")
    expect(await page.getByTestId("expiry").innerText()).toMatch(/^Ce lien de paiement expire dans \d+ minutes?, le \d{1,2} \S+ \d{4} à \d{2}:\d{2} UTC\.$/)
    await page.goto(`${session.payment_url}?locale=ar`)
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl")
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("اختر طريقة الدفع")
    for (const action of await page.locator("form").evaluateAll((forms) => forms.map((form) => form.getAttribute("action")))) {
      expect(action).toMatch(/\?locale=ar$/)
    }
    // With the keyboard alone: the first payment method takes focus, then the way out.
    await page.keyboard.press("Tab")
    expect(await page.evaluate<string>(`document.activeElement?.getAttribute("data-testid") ?? ""`)).toMatch(/^gateway-/)
    await context.close()
  }, 60_000)

  it("choose: no serious or critical axe violation in any language at 390 and 1280 px", async () => {
    const session = await initiate()
    for (const locale of LOCALES) for (const width of WIDTHS) {
      await check("choose", locale, width, async (page) => {
        const response = await page.goto(session.payment_url)
        expect(response?.status()).toBe(200)
      })
    }
  }, 120_000)

  it("paid and cancelled (the pages the kit shows once a payment has ended and it cannot send the customer back, and for a cancelled invoice): none either", async () => {
    for (const [state, key] of [["paid", "finished"], ["cancelled", "invoiceCancelled"]] as const) {
      for (const locale of LOCALES) for (const width of WIDTHS) {
        await check(state, locale, width, (page) =>
          page.setContent(checkoutNotice(locale, key, key === "invoiceCancelled" ? { href: "https://shop.example/cancel", label: "returnToMerchant" } : undefined).markup))
      }
    }
  }, 120_000)

  it("expired and unavailable, as the host answers them: none either", async () => {
    const expiring = await initiate()
    await admin("POST", "/clock/advance", { seconds: 600 })
    for (const locale of LOCALES) for (const width of WIDTHS) {
      await check("expired", locale, width, async (page) => {
        const response = await page.goto(expiring.payment_url)
        expect(response?.status()).toBe(410)
      })
    }
    const pending = await initiate()
    await admin("PATCH", `/merchants/${host!.demo!.merchant_id}`, { status: "suspended" })
    try {
      for (const locale of LOCALES) for (const width of WIDTHS) {
        await check("unavailable", locale, width, async (page) => {
          const response = await page.goto(pending.payment_url)
          expect(response?.status()).toBe(403)
        })
      }
    } finally {
      await admin("PATCH", `/merchants/${host!.demo!.merchant_id}`, { status: "approved" })
    }
  }, 120_000)
})
