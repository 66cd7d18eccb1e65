import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { checkoutPath, expectHtml, formWith, getPage, openGateway, submit } from "./checkout-html.js"
import { sleep } from "./fixtures.js"
import {
  balanceText, CANCEL_URL, createShop, gatewayMaker, initiate, paymentBody, selectGateways, simulate, startSession, statusOf, uniqueRef
} from "./payment-fixtures.js"
import { adminRequest, rawRequest, type Target } from "./signing.js"

/** The default checkout lifetime (CHECKOUT_LIFETIME_MINUTES 60). */
const LIFETIME_SECONDS = 3600

const advance = async (target: Target, seconds: number): Promise<string> =>
  expectOk(await adminRequest(target, "POST", "/clock/advance", { seconds })).now

/** Whether business time on this host moves only through the admin clock (CLOCK=manual). */
const hasManualClock = async (target: Target): Promise<boolean> => (await adminRequest(target, "GET", "/clock")).status === 200

const micros = (iso: string): bigint => BigInt(Date.parse(iso.slice(0, 23) + "Z")) * 1000n + BigInt(iso.slice(23, 26))

/**
 * Expiry of checkout links, on business time. The cases that expire sessions need a host started
 * with CLOCK=manual and skip themselves elsewhere. They move the host's clock forward, which expires
 * every pending session on it: they run last.
 */
export const expiryCases = (target: () => Target) =>
  describe("checkout expiry on business time", () => {
    const makeGateway = gatewayMaker(target)

    it("has the admin clock with CLOCK=manual (standing still, moving only when advanced) and answers 404 for it otherwise", async () => {
      const response = await adminRequest(target(), "GET", "/clock")
      if (response.status !== 200) {
        expectError(response, { status: 404, errorCode: "NOT_FOUND", errors: {} })
        expectError(await adminRequest(target(), "POST", "/clock/advance", { seconds: 60 }), { status: 404, errorCode: "NOT_FOUND", errors: {} })
        return
      }
      const before = expectOk(response).now as string
      expect(before).toMatch(ISO_MICROS)
      await sleep(50)
      expect(expectOk(await adminRequest(target(), "GET", "/clock")).now).toBe(before)
      const after = await advance(target(), 90)
      expect(after).toMatch(ISO_MICROS)
      expect(micros(after) - micros(before)).toBe(90_000_000n)
      expect(expectOk(await adminRequest(target(), "GET", "/clock")).now).toBe(after)
      for (const body of [{ seconds: 0 }, { seconds: -1 }, { seconds: 1.5 }, { seconds: "60" }, {}]) {
        expectError(await adminRequest(target(), "POST", "/clock/advance", body), { status: 422, fields: ["seconds"] })
      }
      expect(expectOk(await adminRequest(target(), "GET", "/clock")).now).toBe(after)
      const anonymous = await rawRequest(target(), { method: "GET", path: "/admin/v1/clock" })
      expectError(anonymous, { status: 401, errorCode: "UNAUTHORIZED" })
    })

    it("keeps a link open until the lifetime ends, then answers 410 with an expiry page; verify says failed and no money moves", async (context) => {
      if (!(await hasManualClock(target()))) return context.skip("the host has no manual clock (CLOCK=manual)")
      const gateway = await makeGateway({ method: "expiry" })
      const shop = await createShop(target(), { merchant: { fee_percent: 2.9, fee_fixed: 0.3 } })
      await selectGateways(target(), shop.merchant.id, [gateway.id])
      const session = await startSession(shop.sandbox, "100")
      const trxId = session.info.trx_id as string
      // The customer has the gateway's form open when the session runs out.
      const sandbox = await openGateway(target(), session.payment_url, gateway.code)

      await advance(target(), LIFETIME_SECONDS - 1)
      expectHtml(await getPage(target(), session.payment_url), 200)
      expect(await statusOf(shop.sandbox, trxId)).toBe("pending")

      await advance(target(), 2)
      const expired = await getPage(target(), session.payment_url)
      const html = expectHtml(expired, 410)
      expect(html).toMatch(/expired/i)
      expect(html).toContain(CANCEL_URL)
      expect(expired.headers["cache-control"] ?? "").toMatch(/\bno-store\b/)
      expect(await statusOf(shop.sandbox, trxId)).toBe("failed")

      // Nothing can revive it: not the open gateway form, not the page's forms, not the simulator.
      expectHtml(await submit(target(), formWith(sandbox.html, "pay"), sandbox.url), 410)
      const cancel = await rawRequest(target(), {
        method: "POST",
        path: `${checkoutPath(session.payment_url)}/cancel`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: ""
      })
      expectHtml(cancel, 410)
      expectError(await simulate(shop.sandbox, trxId, "success"), { status: 409, errorCode: "INVALID_STATE" })
      expect(await statusOf(shop.sandbox, trxId)).toBe("failed")
      expect(await balanceText(target(), shop.merchant.id, shop.wallet("USD").id)).toBe("0")
    })

    it("expires an unvisited session on verify, and lets its ref_trx start a new session", async (context) => {
      if (!(await hasManualClock(target()))) return context.skip("the host has no manual clock (CLOCK=manual)")
      const shop = await createShop(target())
      const ref = uniqueRef("expiring")
      const first = await startSession(shop.sandbox, "10", { ref_trx: ref })
      const untouched = await startSession(shop.sandbox, "10")
      expectError(await initiate(shop.sandbox, paymentBody("10", { ref_trx: ref })), { status: 409, errorCode: "DUPLICATE_REFERENCE", fields: ["ref_trx"] })

      await advance(target(), LIFETIME_SECONDS + 1)
      // The expired session no longer holds its reference, even before anything looked at it.
      const second = await startSession(shop.sandbox, "10", { ref_trx: ref })
      expect(second.info.trx_id).not.toBe(first.info.trx_id)
      expect(await statusOf(shop.sandbox, first.info.trx_id)).toBe("failed")
      expect(await statusOf(shop.sandbox, untouched.info.trx_id)).toBe("failed")
      expect(await statusOf(shop.sandbox, second.info.trx_id)).toBe("pending")
      expectHtml(await getPage(target(), second.payment_url), 200)
      expectHtml(await getPage(target(), first.payment_url), 410)
    })

    it("lists an expired session as failed, as verify answers it, and filters it so", async (context) => {
      if (!(await hasManualClock(target()))) return context.skip("the host has no manual clock (CLOCK=manual)")
      const shop = await createShop(target())
      const expiring = (await startSession(shop.sandbox, "10")).info.trx_id as string
      await advance(target(), LIFETIME_SECONDS + 1)
      const open = (await startSession(shop.sandbox, "10")).info.trx_id as string
      const list = async (query: string) => expectOk(await shop.sandbox.call({ path: `/api/v1/payments${query}` })).data as ReadonlyArray<any>
      expect((await list("?status=pending")).map((payment) => payment.trx_id)).toEqual([open])
      expect((await list("?status=failed")).map((payment) => payment.trx_id)).toEqual([expiring])
      const all = await list("")
      expect(all.map((payment) => [payment.trx_id, payment.status])).toEqual([[open, "pending"], [expiring, "failed"]])
      expect(await statusOf(shop.sandbox, expiring)).toBe("failed")
    })
  })
