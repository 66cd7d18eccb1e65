import { describe, expect, it } from "vitest"
import { expectHtml, getPage } from "./checkout-html.js"
import { setMerchantStatus } from "./fixtures.js"
import { createShop, gatewayMaker, startSession, statusOf } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

/** What a session may offer, and when a link must stop taking payment. */
export const checkoutGuardCases = (target: () => Target) =>
  describe("checkout guards", () => {
    const makeGateway = gatewayMaker(target)

    it("a production session never offers a gateway that serves sandbox only (the simulator)", async () => {
      const simulator = await makeGateway()
      const shop = await createShop(target(), { production: true, wallets: ["USD", "USD:production"] })
      const sandbox = await startSession(shop.sandbox)
      const production = await startSession(shop.production)
      expect(sandbox.info.merchant_payment_method_ids).toContain(simulator.id)
      expect(production.info.merchant_payment_method_ids).not.toContain(simulator.id)
      expect(production.info.merchant_payment_method_codes).not.toContain(simulator.code)
      expect(expectHtml(await getPage(target(), production.payment_url), 200)).not.toContain(simulator.name)
    })

    it("a link issued before the merchant was disabled stops taking payment, and works again once approved", async () => {
      await makeGateway()
      const shop = await createShop(target())
      const session = await startSession(shop.sandbox)
      try {
        await setMerchantStatus(target(), shop.merchant.id, "disabled")
        const refused = await getPage(target(), session.payment_url)
        expect(expectHtml(refused, 403)).toContain("cannot accept payments")
      } finally {
        await setMerchantStatus(target(), shop.merchant.id, "approved")
      }
      expectHtml(await getPage(target(), session.payment_url), 200)
      expect(await statusOf(shop.sandbox, session.info.trx_id)).toBe("pending")
    })
  })
