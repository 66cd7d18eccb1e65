import { describe, expect, it } from "vitest"
import { expectHtml, getPage, offeredCodes } from "./checkout-html.js"
import { createShop, gatewayMaker, type GatewayBody, listGateways, selectGateways, startSession, suffix } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

const sorted = <A>(items: ReadonlyArray<A>): Array<A> => [...items].sort()

/** Spec 4.1 steps 5 and 6: which gateways a session offers, in its info and on its hosted page. */
export const gatewaySetCases = (target: () => Target) =>
  describe("initiate-payment: the gateway set and allow_payment_methods", () => {
    const makeGateway = gatewayMaker(target)

    /** Two eligible USD gateways and three that must never be offered for USD; names and codes unique. */
    const lineup = async () => ({
      alpha: await makeGateway({ method: "alpha", name: `Alpha${suffix()} Cards` }),
      beta: await makeGateway({ method: "beta", name: `Beta${suffix()} Bank` }),
      manual: await makeGateway({ method: "manual", name: `Manual${suffix()} Transfer`, type: "manual" }),
      inactive: await makeGateway({ method: "inactive", name: `Inactive${suffix()} Cards`, active: false }),
      euro: await makeGateway({ method: "euro", name: `Euro${suffix()} Cards`, currency: "EUR" })
    })
    /** The first word of a gateway's name: found in its name only, never in its code. */
    const nameWord = (gateway: GatewayBody) => gateway.name.split(" ")[0]!

    const sessionWithPage = async (shop: Awaited<ReturnType<typeof createShop>>, fields: Record<string, unknown> = {}) => {
      const session = await startSession(shop.sandbox, "10", fields)
      const page = expectHtml(await getPage(target(), session.payment_url), 200)
      return { info: session.info, page: sorted(offeredCodes(page)) }
    }

    it("without a selection offers every active automatic gateway of exactly that currency, never a manual, inactive or other-currency one", async () => {
      const { alpha, beta, manual, inactive, euro } = await lineup()
      const shop = await createShop(target(), { currencies: ["USD", "EUR"] })
      const usd = (await listGateways(target())).filter((g) => g.active && g.type === "automatic" && g.currency_code === "USD")
      const { info, page } = await sessionWithPage(shop)
      expect(info.merchant_payment_methods_restricted).toBe(false)
      expect(sorted(info.merchant_payment_method_ids)).toEqual(sorted(usd.map((g) => g.id)))
      expect(sorted(info.merchant_payment_method_codes)).toEqual(sorted(usd.map((g) => g.code)))
      expect(info.merchant_payment_method_ids).toEqual(expect.arrayContaining([alpha.id, beta.id]))
      for (const never of [manual, inactive, euro]) {
        expect(info.merchant_payment_method_ids).not.toContain(never.id)
        expect(info.merchant_payment_method_codes).not.toContain(never.code)
      }
      expect(page).toEqual(sorted(info.merchant_payment_method_codes))
      const eur = await sessionWithPage(shop, { currency_code: "EUR" })
      expect(eur.info.merchant_payment_method_ids).toContain(euro.id)
      expect(eur.info.merchant_payment_method_ids).not.toContain(alpha.id)
      expect(eur.page).toContain(euro.code)
      expect(eur.page).not.toContain(alpha.code)
    })

    it("with a selection offers only the selected gateways that are eligible for the currency", async () => {
      const { alpha, beta, manual, inactive, euro } = await lineup()
      const shop = await createShop(target(), { currencies: ["USD", "EUR"] })
      await selectGateways(target(), shop.merchant.id, [alpha.id, manual.id, inactive.id, euro.id])
      const usd = await sessionWithPage(shop)
      expect(usd.info.merchant_payment_methods_restricted).toBe(true)
      expect(usd.info.merchant_payment_method_ids).toEqual([alpha.id])
      expect(usd.info.merchant_payment_method_codes).toEqual([alpha.code])
      expect(usd.page).toEqual([alpha.code])
      const eur = await sessionWithPage(shop, { currency_code: "EUR" })
      expect(eur.info.merchant_payment_method_ids).toEqual([euro.id])
      expect(eur.page).toEqual([euro.code])

      // A selection with nothing eligible stays a restriction: nothing is offered, beta is not let in.
      await selectGateways(target(), shop.merchant.id, [manual.id, inactive.id])
      const none = await sessionWithPage(shop)
      expect(none.info.merchant_payment_methods_restricted).toBe(true)
      expect(none.info.merchant_payment_method_ids).toEqual([])
      expect(none.info.merchant_payment_method_codes).toEqual([])
      expect(none.page).toEqual([])

      // An empty selection clears the restriction.
      await selectGateways(target(), shop.merchant.id, [])
      const open = await sessionWithPage(shop)
      expect(open.info.merchant_payment_methods_restricted).toBe(false)
      expect(open.page).toEqual(expect.arrayContaining([alpha.code, beta.code]))
    })

    it("normalizes allow_payment_methods from a comma, pipe or space separated string: trimmed, lower-cased, de-duplicated", async () => {
      const { alpha, beta } = await lineup()
      const shop = await createShop(target())
      const nowhere = `nowhere${suffix()}`
      const keywords = `  ${alpha.method.toUpperCase()} , ${nameWord(beta)}|${alpha.method}\t ${nowhere.toUpperCase()},,| `
      const { info, page } = await sessionWithPage(shop, { allow_payment_methods: keywords })
      expect(info.allow_payment_methods).toEqual([alpha.method, nameWord(beta).toLowerCase(), nowhere])
      expect(sorted(info.merchant_payment_method_codes)).toEqual(sorted([alpha.code, beta.code]))
      expect(page).toEqual(sorted([alpha.code, beta.code]))
    })

    it("accepts allow_payment_methods as an array, normalized the same way", async () => {
      const { alpha, beta } = await lineup()
      const shop = await createShop(target())
      const keywords = [` ${nameWord(alpha).toUpperCase()} `, nameWord(alpha).toLowerCase(), `${beta.code.toUpperCase()}`]
      const { info, page } = await sessionWithPage(shop, { allow_payment_methods: keywords })
      expect(info.allow_payment_methods).toEqual([nameWord(alpha).toLowerCase(), beta.code])
      expect(page).toEqual(sorted([alpha.code, beta.code]))
    })

    it("matches a keyword as a case-insensitive substring of the name or the code, and only narrows", async () => {
      const { alpha, beta, manual, inactive, euro } = await lineup()
      const shop = await createShop(target(), { currencies: ["USD", "EUR"] })
      const eligible = (await sessionWithPage(shop)).info.merchant_payment_method_ids
      const inName = nameWord(alpha).slice(2, -2).toUpperCase()
      const inCode = beta.code.slice(1, -3).toUpperCase()
      const narrowed = await sessionWithPage(shop, { allow_payment_methods: `${inName} ${inCode}` })
      expect(narrowed.page).toEqual(sorted([alpha.code, beta.code]))
      expect(sorted(narrowed.info.merchant_payment_method_codes)).toEqual(sorted([alpha.code, beta.code]))
      // The keywords narrow what is shown, not what is eligible.
      expect(sorted(narrowed.info.merchant_payment_method_ids)).toEqual(sorted(eligible))

      // Keywords naming only gateways that are not eligible add nothing; the page offers none.
      const words = [manual, inactive, euro].flatMap((g) => [nameWord(g), g.code])
      const ineligible = await sessionWithPage(shop, { allow_payment_methods: words })
      expect(ineligible.info.merchant_payment_method_codes).toEqual([])
      expect(ineligible.page).toEqual([])
      const nothing = await sessionWithPage(shop, { allow_payment_methods: `nothing${suffix()}` })
      expect(nothing.info.merchant_payment_method_codes).toEqual([])
      expect(nothing.page).toEqual([])
    })

    it("narrows a merchant's selection too, never reaching past it", async () => {
      const { alpha, beta } = await lineup()
      const shop = await createShop(target())
      await selectGateways(target(), shop.merchant.id, [alpha.id])
      const outside = await sessionWithPage(shop, { allow_payment_methods: [nameWord(beta)] })
      expect(outside.info.merchant_payment_method_ids).toEqual([alpha.id])
      expect(outside.page).toEqual([])
      await selectGateways(target(), shop.merchant.id, [alpha.id, beta.id])
      const inside = await sessionWithPage(shop, { allow_payment_methods: nameWord(beta) })
      expect(inside.page).toEqual([beta.code])
      expect(inside.info.merchant_payment_method_codes).toEqual([beta.code])
    })
  })
