import { describe, expect, it } from "vitest"
import { checkoutPath, expectHtml, getPage } from "./checkout-html.js"
import { uniqueName } from "./fixtures.js"
import { createShop, gatewayMaker, startSession, statusOf } from "./payment-fixtures.js"
import { rawRequest, type HttpResult, type Target } from "./signing.js"

const SCRIPT = "<script>alert('x')</script>"
const ESCAPED_SCRIPT = /&lt;script&gt;alert\((?:&#39;|&#x27;|&apos;|')x(?:&#39;|&#x27;|&apos;|')\)&lt;\/script&gt;/

/** Headers every checkout page carries: the URL holds the session token, and no script may run. */
const expectPageHeaders = (response: HttpResult) => {
  expect(response.headers["cache-control"] ?? "").toMatch(/\bno-store\b/)
  expect(response.headers["referrer-policy"]).toBe("no-referrer")
  const csp = response.headers["content-security-policy"] ?? ""
  expect(csp).toMatch(/\bdefault-src 'none'/)
  expect(csp).not.toMatch(/script-src/)
}

/** Changes one character of a base64url string at `index`. */
const flip = (text: string, index: number) =>
  `${text.slice(0, index)}${text[index] === "A" ? "B" : "A"}${text.slice(index + 1)}`

/** Hosted checkout pages as HTML: what they show, how they are protected, and links that do not open. */
export const checkoutPageCases = (target: () => Target) =>
  describe("hosted checkout page", () => {
    const makeGateway = gatewayMaker(target)

    it("shows the merchant, the amount in the currency's minor digits and the escaped description, with safe headers", async () => {
      const gateway = await makeGateway()
      const shop = await createShop(target(), { merchant: { name: uniqueName("Tea & <Cakes>") } })
      const session = await startSession(shop.sandbox, "100", { description: `Order 7 ${SCRIPT}` })
      const response = await getPage(target(), session.payment_url)
      const html = expectHtml(response, 200)
      expectPageHeaders(response)
      expect(html).toContain(shop.merchant.name.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
      expect(html).not.toContain("<Cakes>")
      expect(html).toMatch(/\b100\.00 USD\b/)
      expect(html).toMatch(ESCAPED_SCRIPT)
      expect(html).not.toContain(SCRIPT)
      expect(html).not.toMatch(/<script\b/i)
      expect(html).toContain(`gateway-${gateway.code}`)
      // Opening the page is not paying.
      expect(await statusOf(shop.sandbox, session.info.trx_id)).toBe("pending")
    })

    it.each([
      ["JPY", "1500", /\b1,?500 JPY\b/, /\b1,?500[.,]0+ JPY/],
      ["USD", "12.5", /\b12\.50 USD\b/, /\b12\.5 USD\b/],
      ["KWD", "2.5", /\b2\.500 KWD\b/, /\b2\.50? KWD\b/]
    ])("formats %s %s with exactly the currency's minor digits", async (currency, amount, shown, wrong) => {
      const shop = await createShop(target(), { currencies: [currency] })
      const html = expectHtml(await getPage(target(), (await startSession(shop.sandbox, amount, { currency_code: currency })).payment_url), 200)
      expect(html).toMatch(shown)
      expect(html).not.toMatch(wrong)
    })

    it("says what to do: a heading, each method a button, and when the link expires in a <time> element", async () => {
      const gateway = await makeGateway()
      const shop = await createShop(target())
      const html = expectHtml(await getPage(target(), (await startSession(shop.sandbox, "10")).payment_url), 200)
      expect(html).toMatch(/<h1>Choose how to pay<\/h1>/)
      expect(html).toMatch(new RegExp(`<button type="submit"[^>]*data-testid="gateway-${gateway.code}"`))
      const expiry = /This payment link expires in (\d+ minutes?|less than a minute), at <time datetime="([^"]+)">([^<]+)<\/time>\./.exec(html)
      expect(expiry, html).not.toBeNull()
      const [, , datetime, shown] = expiry!
      expect(datetime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
      const at = new Date(datetime!)
      const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
      expect(shown).toBe(`${datetime!.slice(11, 16)} UTC on ${at.getUTCDate()} ${months[at.getUTCMonth()]} ${at.getUTCFullYear()}`)
    })

    it("shows a test-mode banner in sandbox only", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const sandbox = expectHtml(await getPage(target(), (await startSession(shop.sandbox, "10")).payment_url), 200)
      const productionResponse = await getPage(target(), (await startSession(shop.production, "10")).payment_url)
      const production = expectHtml(productionResponse, 200)
      expectPageHeaders(productionResponse)
      expect(sandbox).toMatch(/test mode/i)
      expect(production).not.toMatch(/test mode/i)
      expect(production).toContain(shop.merchant.name)
    })

    it("answers 404 for a link whose MAC or payload has one character changed, and leaves the payment pending", async () => {
      const shop = await createShop(target())
      const session = await startSession(shop.sandbox, "10")
      const path = checkoutPath(session.payment_url)
      const token = path.slice("/checkout/".length)
      const [payload, mac] = token.split(".") as [string, string]
      expect(typeof mac).toBe("string")
      const tampered = [
        `${payload}.${flip(mac, 0)}`,
        `${payload}.${flip(mac, Math.floor(mac.length / 2))}`,
        `${flip(payload, payload.length - 3)}.${mac}`,
        `${flip(payload, 4)}.${mac}`,
        `${payload}.${mac.slice(0, -1)}`,
        `${payload}.${mac}x`,
        `${payload}`,
        `${payload}.${mac}.${mac}`
      ]
      for (const forged of tampered) {
        const response = await rawRequest(target(), { method: "GET", path: `/checkout/${forged}`, headers: { accept: "text/html" } })
        expect(response.status, forged).toBe(404)
        const cancel = await rawRequest(target(), { method: "POST", path: `/checkout/${forged}/cancel`, headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })
        expect(cancel.status, forged).toBe(404)
      }
      expect(await statusOf(shop.sandbox, session.info.trx_id)).toBe("pending")
      expectHtml(await getPage(target(), session.payment_url), 200)
    })

    it("answers 404 for a link that was never issued", async () => {
      const shop = await createShop(target())
      const real = checkoutPath((await startSession(shop.sandbox, "10")).payment_url).slice("/checkout/".length)
      const [payload, mac] = real.split(".") as [string, string]
      for (const token of [
        "AQAAAABm_____1NBTkRCT1hfMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
        `${"A".repeat(payload.length)}.${mac}`,
        "not-a-token",
        "x".repeat(600)
      ]) {
        const response = await rawRequest(target(), { method: "GET", path: `/checkout/${token}`, headers: { accept: "text/html" } })
        expect(response.status, token).toBe(404)
      }
    })
  })
