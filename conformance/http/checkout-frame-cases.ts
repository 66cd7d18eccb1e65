import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { checkoutPath, expectHtml, expectSeeOther, formWith, getPage, openGateway } from "./checkout-html.js"
import { createShop, gatewayMaker, returnUrl, selectGateways, startSession, statusOf, SUCCESS_URL } from "./payment-fixtures.js"
import { adminRequest, rawRequest, type Target } from "./signing.js"

const framesPath = (merchantId: number) => `/merchants/${merchantId}/checkout-frame-ancestors`

const frameAncestorsOf = (headers: Readonly<Record<string, string | undefined>>) =>
  /(?:^|;)\s*frame-ancestors ([^;]*)/.exec(headers["content-security-policy"] ?? "")?.[1]?.trim()

/** An embed flow: the origins a merchant lets frame its checkout, and what its pages then send. */
export const checkoutFrameCases = (target: () => Target) =>
  describe("hosted checkout in a merchant's frame", () => {
    const makeGateway = gatewayMaker(target)

    it("the admin API keeps https origins only, normalised, and refuses every other entry by name, changing nothing", async () => {
      const shop = await createShop(target())
      expect(expectOk(await adminRequest(target(), "GET", framesPath(shop.merchant.id)))).toEqual({ merchant_id: shop.merchant.id, checkout_frame_ancestors: [] })
      const kept = expectOk(await adminRequest(target(), "PUT", framesPath(shop.merchant.id), {
        checkout_frame_ancestors: ["https://Shop.Example:443/", "https://staging.shop.example:8443", "https://shop.example"]
      }))
      expect(kept.checkout_frame_ancestors).toEqual(["https://shop.example", "https://staging.shop.example:8443"])
      const refused = ["http://shop.example", "https://shop.example/checkout", "https://*.shop.example", "*", "https://user:pw@shop.example", "shop.example", "https://shop.example?x=1"]
      const body = expectError(await adminRequest(target(), "PUT", framesPath(shop.merchant.id), { checkout_frame_ancestors: ["https://fine.example", ...refused] }), {
        status: 422, errorCode: "VALIDATION_FAILED"
      })
      expect(body.errors.checkout_frame_ancestors).toHaveLength(refused.length)
      const tooMany = Array.from({ length: 11 }, (_, index) => `https://shop${index}.example`)
      expectError(await adminRequest(target(), "PUT", framesPath(shop.merchant.id), { checkout_frame_ancestors: tooMany }), { status: 422, errorCode: "VALIDATION_FAILED" })
      expect(expectOk(await adminRequest(target(), "GET", framesPath(shop.merchant.id))).checkout_frame_ancestors).toEqual(kept.checkout_frame_ancestors)
      expectError(await adminRequest(target(), "GET", framesPath(999_999_999)), { status: 404, errorCode: "NOT_FOUND" })
    })

    it("its checkout pages allow exactly its origins; other merchants' checkouts and unknown links stay unframeable", async () => {
      const gateway = await makeGateway({ method: "frames" })
      const framed = await createShop(target())
      const plain = await createShop(target())
      for (const shop of [framed, plain]) await selectGateways(target(), shop.merchant.id, [gateway.id])
      expectOk(await adminRequest(target(), "PUT", framesPath(framed.merchant.id), { checkout_frame_ancestors: ["https://shop.example", "https://b.example:8443"] }))
      const session = await startSession(framed.sandbox, "10")
      const page = await getPage(target(), session.payment_url)
      expectHtml(page, 200)
      expect(frameAncestorsOf(page.headers)).toBe("https://shop.example https://b.example:8443")
      expect(page.headers["x-frame-options"]).toBeUndefined()
      const sandbox = await openGateway(target(), session.payment_url, gateway.code)
      expect(sandbox.html).toContain("data-testid=\"pay\"")

      const other = await getPage(target(), (await startSession(plain.sandbox, "10")).payment_url)
      expectHtml(other, 200)
      expect([frameAncestorsOf(other.headers), other.headers["x-frame-options"]]).toEqual(["'none'", "DENY"])
      const unknown = await rawRequest(target(), { method: "GET", path: "/checkout/AAAA.BBBB", headers: { accept: "text/html" } })
      expect([unknown.status, frameAncestorsOf(unknown.headers)]).toEqual([404, "'none'"])

      expectOk(await adminRequest(target(), "PUT", framesPath(framed.merchant.id), { checkout_frame_ancestors: [] }))
      expect(frameAncestorsOf((await getPage(target(), session.payment_url)).headers)).toBe("'none'")
    })

    it("paid inside a frame, checkout stays on its last page, whose script tells the parent; outside a frame it redirects as ever", async () => {
      const gateway = await makeGateway({ method: "frameend" })
      const shop = await createShop(target())
      await selectGateways(target(), shop.merchant.id, [gateway.id])
      expectOk(await adminRequest(target(), "PUT", framesPath(shop.merchant.id), { checkout_frame_ancestors: ["https://shop.example"] }))
      const session = await startSession(shop.sandbox, "10")
      const sandbox = await openGateway(target(), session.payment_url, gateway.code)
      const pay = formWith(sandbox.html, "pay")
      const answer = await rawRequest(target(), {
        method: "POST",
        path: checkoutPath(pay.action, sandbox.url),
        headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded", "sec-fetch-dest": "iframe" },
        body: new URLSearchParams(pay.fields).toString()
      })
      const html = expectHtml(answer, 200)
      expect(await statusOf(shop.sandbox, session.info.trx_id)).toBe("success")
      expect(html).toMatch(new RegExp(`data-status="success" data-trx-id="${session.info.trx_id}" data-parent-origins="https://shop.example"`))
      expect(frameAncestorsOf(answer.headers)).toBe("https://shop.example")
      expect(answer.headers["content-security-policy"]).toContain("script-src 'self'")
      const scriptSrc = /<script src="([^"]+)"/.exec(html)?.[1]
      expect(scriptSrc).toBeDefined()
      const script = await rawRequest(target(), { method: "GET", path: checkoutPath(scriptSrc!, session.payment_url) })
      expect([script.status, script.headers["content-type"]]).toEqual([200, "text/javascript; charset=utf-8"])
      expect(script.text).toContain("merchant-payments.checkout")
      expect(script.text).not.toMatch(/postMessage\([^)]*["']\*["']/)
      // The same link outside a frame: back to the merchant, as the contract says.
      expectSeeOther(await getPage(target(), session.payment_url), returnUrl(SUCCESS_URL, session))
    })
  })
