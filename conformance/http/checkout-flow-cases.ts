import { describe, expect, it } from "vitest"
import { expectHtml, expectSeeOther, formWith, getPage, offeredCodes, openGateway, submit } from "./checkout-html.js"
import { expectOk } from "./assertions.js"
import { balanceText, CANCEL_URL, createShop, gatewayMaker, returnUrl, selectGateways, startSession, statusOf, SUCCESS_URL, verify } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

const FEES = { fee_percent: 2.9, fee_fixed: 0.3 }

/** The customer's path through plain HTML forms: pick a gateway, then the sandbox gateway's own forms. */
export const checkoutFlowCases = (target: () => Target) =>
  describe("hosted checkout flow", () => {
    const makeGateway = gatewayMaker(target)

    /** A shop whose checkout offers exactly one fresh sandbox gateway, and a pending 100 USD session. */
    const pendingCheckout = async () => {
      const gateway = await makeGateway({ method: "flow" })
      const shop = await createShop(target(), { merchant: FEES })
      await selectGateways(target(), shop.merchant.id, [gateway.id])
      const session = await startSession(shop.sandbox, "100")
      const balance = () => balanceText(target(), shop.merchant.id, shop.wallet("USD").id)
      const status = () => statusOf(shop.sandbox, session.info.trx_id)
      return {
        gateway, shop, session, url: session.payment_url as string, trxId: session.info.trx_id as string, balance, status,
        success: returnUrl(SUCCESS_URL, session),
        cancel: returnUrl(CANCEL_URL, session)
      }
    }

    it("pay: the gateway form leads to the sandbox form; Pay answers 303 to success_redirect and the payment succeeds", async () => {
      const { gateway, shop, url, trxId, balance, status, success } = await pendingCheckout()
      const sandbox = await openGateway(target(), url, gateway.code)
      for (const testId of ["pay", "decline", "cancel"]) {
        expect(formWith(sandbox.html, testId).fields["trx_id"]).toBe(trxId)
      }
      expect(sandbox.html).toMatch(/\b100\.00 USD\b/)
      expect(await status()).toBe("pending")
      expectSeeOther(await submit(target(), formWith(sandbox.html, "pay"), sandbox.url), success)
      const verified = await verify(shop.sandbox, trxId)
      expect(expectOk(verified)).toMatchObject({ status: "success", fee: 3.2, net_amount: 96.8 })
      expect(await balance()).toBe("96.8")
      // The link now leads back to the outcome instead of offering payment again.
      expectSeeOther(await getPage(target(), url), success)
    })

    it("the gateway's page shows the amount in the currency's minor digits too, never another spelling", async () => {
      const gateway = await makeGateway({ method: "display" })
      const shop = await createShop(target())
      await selectGateways(target(), shop.merchant.id, [gateway.id])
      const session = await startSession(shop.sandbox, "12.5")
      const sandbox = await openGateway(target(), session.payment_url, gateway.code)
      // Every spelling of the amount the customer reads on this page (kit heading and gateway form).
      const shown = [...sandbox.html.replace(/<[^>]*>/g, "").matchAll(/\b\d[\d,]*(?:\.\d+)? USD\b/g)].map(([text]) => text)
      expect(shown.length).toBeGreaterThan(0)
      expect(new Set(shown), `amounts shown: ${JSON.stringify(shown)}`).toEqual(new Set(["12.50 USD"]))
    })

    it("decline: 303 back to the choice page, which says why; the payment stays pending, no event; paying then succeeds", async () => {
      const { gateway, shop, url, trxId, balance, status, success } = await pendingCheckout()
      const sandbox = await openGateway(target(), url, gateway.code)
      expectSeeOther(await submit(target(), formWith(sandbox.html, "decline"), sandbox.url), url)
      expect(await status()).toBe("pending")
      expect(await balance()).toBe("0")
      expect(expectOk(await shop.sandbox.call({ path: `/api/v1/events?object_id=${trxId}` })).data).toEqual([])
      const choice = expectHtml(await getPage(target(), url), 200)
      expect(choice).toMatch(/role="alert"[^>]*>[^<]*declined the payment/)
      expect(offeredCodes(choice)).toEqual([gateway.code])
      // Reopening the steps of a live session (a reload, the back button) leads back to it.
      for (const step of ["pay", "cancel"]) expectSeeOther(await getPage(target(), `${url}/${step}`), url)
      expect(await status()).toBe("pending")
      const again = await openGateway(target(), url, gateway.code)
      expect(expectHtml(await getPage(target(), url), 200)).not.toMatch(/declined the payment/)
      expectSeeOther(await submit(target(), formWith(again.html, "pay"), again.url), success)
      expect(expectOk(await verify(shop.sandbox, trxId))).toMatchObject({ status: "success", fee: 3.2, net_amount: 96.8 })
      expect(await balance()).toBe("96.8")
    })

    it("the sandbox form's Cancel: 303 to cancel_redirect, the payment fails", async () => {
      const { gateway, url, balance, status, cancel } = await pendingCheckout()
      const sandbox = await openGateway(target(), url, gateway.code)
      expectSeeOther(await submit(target(), formWith(sandbox.html, "cancel"), sandbox.url), cancel)
      expect(await status()).toBe("failed")
      expect(await balance()).toBe("0")
    })

    it("the checkout page's own cancel form: 303 to cancel_redirect, the payment fails, a second cancel changes nothing", async () => {
      const { url, balance, status, cancel: back } = await pendingCheckout()
      const page = expectHtml(await getPage(target(), url), 200)
      const cancel = formWith(page, "cancel-checkout")
      expectSeeOther(await submit(target(), cancel, url), back)
      expect(await status()).toBe("failed")
      expectSeeOther(await submit(target(), cancel, url), back)
      expect(await status()).toBe("failed")
      expect(await balance()).toBe("0")
    })

    it("submitting Pay twice: the second answers 303 to the settled outcome and money moves once", async () => {
      const { gateway, url, balance, status, success } = await pendingCheckout()
      const sandbox = await openGateway(target(), url, gateway.code)
      const pay = formWith(sandbox.html, "pay")
      expectSeeOther(await submit(target(), pay, sandbox.url), success)
      expectSeeOther(await submit(target(), pay, sandbox.url), success)
      // A late Decline or cancel from another tab cannot undo it either.
      expectSeeOther(await submit(target(), formWith(sandbox.html, "decline"), sandbox.url), success)
      expectSeeOther(await getPage(target(), url), success)
      expect(await status()).toBe("success")
      expect(await balance()).toBe("96.8")
    })

    it("several Pay submissions at once: every one lands on success_redirect and money moves once", async () => {
      const { gateway, url, balance, status, success } = await pendingCheckout()
      const sandbox = await openGateway(target(), url, gateway.code)
      const pay = formWith(sandbox.html, "pay")
      const responses = await Promise.all(Array.from({ length: 5 }, () => submit(target(), pay, sandbox.url)))
      for (const response of responses) expectSeeOther(response, success)
      expect(await status()).toBe("success")
      expect(await balance()).toBe("96.8")
    })

    it("a forged return (hidden fields changed) answers a 400 page and the payment stays pending; the genuine form still works", async () => {
      const { gateway, url, balance, status, success } = await pendingCheckout()
      const sandbox = await openGateway(target(), url, gateway.code)
      const decline = formWith(sandbox.html, "decline")
      const pay = formWith(sandbox.html, "pay")
      const signature = pay.fields["signature"]!
      const other = await pendingCheckout()
      const forgeries: ReadonlyArray<Record<string, string>> = [
        { outcome: "paid" },
        { signature: `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}` },
        { signature: "" },
        { trx_id: other.trxId },
        { outcome: "refunded", signature }
      ]
      for (const changes of forgeries) {
        const forged = changes["outcome"] === "paid" ? decline : pay
        expectHtml(await submit(target(), forged, sandbox.url, changes), 400)
        expect(await status(), JSON.stringify(changes)).toBe("pending")
      }
      expect(await other.status()).toBe("pending")
      expect(await balance()).toBe("0")
      expectSeeOther(await submit(target(), pay, sandbox.url), success)
      expect(await balance()).toBe("96.8")
    })

    it("the return keeps the merchant's query and fragment, and names the payment once even when the merchant's URL already did", async () => {
      const gateway = await makeGateway({ method: "params" })
      const shop = await createShop(target())
      await selectGateways(target(), shop.merchant.id, [gateway.id])
      const session = await startSession(shop.sandbox, "10", {
        success_redirect: "https://shop.example/done?trx_id=mine&keep=a%20b#top",
        cancel_redirect: "https://shop.example/back?x=1&y=%2F"
      })
      const sandbox = await openGateway(target(), session.payment_url, gateway.code)
      const paid = await submit(target(), formWith(sandbox.html, "pay"), sandbox.url)
      expect(paid.status).toBe(303)
      const location = new URL(paid.headers["location"]!)
      expect([location.origin + location.pathname, location.hash]).toEqual(["https://shop.example/done", "#top"])
      expect([...location.searchParams]).toEqual([["keep", "a b"], ["trx_id", session.info.trx_id], ["ref_trx", session.info.ref_trx]])
      const other = await startSession(shop.sandbox, "10", { cancel_redirect: "https://shop.example/back?x=1&y=%2F" })
      const page = expectHtml(await getPage(target(), other.payment_url), 200)
      expectSeeOther(await submit(target(), formWith(page, "cancel-checkout"), other.payment_url), returnUrl("https://shop.example/back?x=1&y=%2F", other))
    })

    it("refuses a gateway the session does not offer with a 400 page, and stays pending", async () => {
      const { gateway, url, status } = await pendingCheckout()
      const stranger = await makeGateway({ method: "stranger" })
      const page = expectHtml(await getPage(target(), url), 200)
      expect(offeredCodes(page)).toEqual([gateway.code])
      const choice = formWith(page, `gateway-${gateway.code}`)
      expectHtml(await submit(target(), choice, url, { gateway_id: String(stranger.id) }), 400)
      expect(await status()).toBe("pending")
    })
  })

