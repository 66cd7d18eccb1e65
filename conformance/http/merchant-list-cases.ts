import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import type { MerchantCaller } from "./fixtures.js"
import { createShop, gatewayMaker, simulate, startSession, uniqueRef, verify } from "./payment-fixtures.js"
import { paidPayment, REFUND_KEYS, refund } from "./refund-fixtures.js"
import type { Target } from "./signing.js"

const get = (caller: MerchantCaller, path: string) => caller.call({ path })
const INVALID = { status: 422, errorCode: "VALIDATION_FAILED" } as const

/** Newest first; rows of one instant by id, descending (the ids differ in what each list names them). */
const newestFirst = <A extends Readonly<Record<string, unknown>>>(rows: ReadonlyArray<A>, id: "trx_id" | "refund_trx_id"): Array<A> =>
  [...rows].sort((a, b) => (a.created_at !== b.created_at ? (String(a.created_at) > String(b.created_at) ? -1 : 1) : String(a[id]) > String(b[id]) ? -1 : 1))

const trxIds = (page: { readonly data: ReadonlyArray<{ readonly trx_id: string }> }) => page.data.map((payment) => payment.trx_id)

/** The merchant's lists: GET /api/v1/payments and GET /api/v1/refunds, signed like every merchant call. */
export const merchantListCases = (target: () => Target) =>
  describe("merchant lists", () => {
    const makeGateway = gatewayMaker(target)

    it("lists the merchant's payments newest first in cursor pages, each as verify answers it, filtered, and no one else's", async () => {
      await makeGateway()
      const shop = await createShop(target(), { production: true })
      const reference = uniqueRef()
      const paid = (await startSession(shop.sandbox, "12.50")).info.trx_id as string
      const declined = (await startSession(shop.sandbox, "100", { ref_trx: reference })).info.trx_id as string
      const pending = (await startSession(shop.sandbox, "100")).info.trx_id as string
      expect((await simulate(shop.sandbox, paid, "success")).status).toBe(200)
      expect((await simulate(shop.sandbox, declined, "failed")).status).toBe(200)

      const all = expectOk(await get(shop.sandbox, "/api/v1/payments"))
      expect(Object.keys(all).sort()).toEqual(["data", "has_more", "next_cursor"])
      expect([all.has_more, all.next_cursor]).toEqual([false, null])
      expect(new Set(trxIds(all))).toEqual(new Set([paid, declined, pending]))
      expect(all.data).toEqual(newestFirst(all.data, "trx_id"))
      for (const payment of all.data) {
        expect(payment).toEqual(expectOk(await verify(shop.sandbox, payment.trx_id)))
        expect(payment.created_at).toMatch(ISO_MICROS)
      }

      const first = expectOk(await get(shop.sandbox, "/api/v1/payments?limit=2"))
      expect([first.data.length, first.has_more]).toEqual([2, true])
      const second = expectOk(await get(shop.sandbox, `/api/v1/payments?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
      expect([...trxIds(first), ...trxIds(second)]).toEqual(trxIds(all))
      expect([second.has_more, second.next_cursor]).toEqual([false, null])

      expect(trxIds(expectOk(await get(shop.sandbox, "/api/v1/payments?status=success")))).toEqual([paid])
      expect(trxIds(expectOk(await get(shop.sandbox, "/api/v1/payments?status=failed")))).toEqual([declined])
      expect(trxIds(expectOk(await get(shop.sandbox, "/api/v1/payments?status=pending")))).toEqual([pending])
      expect(trxIds(expectOk(await get(shop.sandbox, `/api/v1/payments?reference=${reference}`)))).toEqual([declined])
      // The amount is matched exactly, however its decimal is written.
      for (const amount of ["12.5", "12.50", "12.50000000"]) {
        expect(trxIds(expectOk(await get(shop.sandbox, `/api/v1/payments?amount=${amount}`)))).toEqual([paid])
      }
      expect(expectOk(await get(shop.sandbox, "/api/v1/payments?amount=12.51")).data).toEqual([])
      expect(trxIds(expectOk(await get(shop.sandbox, "/api/v1/payments?currency=USD&status=success")))).toEqual([paid])
      // since is inclusive, until exclusive.
      const oldest = encodeURIComponent(all.data[2].created_at)
      expect(trxIds(expectOk(await get(shop.sandbox, `/api/v1/payments?since=${oldest}`)))).toEqual(trxIds(all))
      expect(expectOk(await get(shop.sandbox, `/api/v1/payments?until=${oldest}`)).data).toEqual([])

      expect(expectOk(await get(shop.production, "/api/v1/payments")).data).toEqual([])
      expect(expectOk(await get((await createShop(target())).sandbox, "/api/v1/payments")).data).toEqual([])
    })

    it("lists the merchant's refunds newest first, each as the refund endpoint answered it, by payment, and no one else's", async () => {
      await makeGateway()
      const shop = await createShop(target(), { production: true })
      const one = await paidPayment(shop)
      const two = await paidPayment(shop)
      const made = [
        expectOk(await refund(shop.sandbox, { trx_id: one, reason: "damaged", ref_refund: "rf-1" }, "10")),
        expectOk(await refund(shop.sandbox, { trx_id: two }, "5")),
        expectOk(await refund(shop.sandbox, { trx_id: one }, "2.5"))
      ]

      const all = expectOk(await get(shop.sandbox, "/api/v1/refunds"))
      expect(Object.keys(all).sort()).toEqual(["data", "has_more", "next_cursor"])
      expect(all.data).toEqual(newestFirst(all.data, "refund_trx_id"))
      expect(new Set(all.data.map((item: { readonly refund_trx_id: string }) => item.refund_trx_id)))
        .toEqual(new Set(made.map((answer) => answer.refund_trx_id)))
      for (const item of all.data) {
        expect(Object.keys(item).sort()).toEqual([...REFUND_KEYS, "created_at", "reason", "ref_refund"].sort())
        const { created_at, reason, ref_refund, ...answered } = item
        expect(answered).toEqual(made.find((answer) => answer.refund_trx_id === item.refund_trx_id))
        expect(created_at).toMatch(ISO_MICROS)
        expect([reason, ref_refund]).toEqual(item.refund_trx_id === made[0].refund_trx_id ? ["damaged", "rf-1"] : [null, null])
      }

      const first = expectOk(await get(shop.sandbox, "/api/v1/refunds?limit=1"))
      expect(first.has_more).toBe(true)
      const rest = expectOk(await get(shop.sandbox, `/api/v1/refunds?cursor=${encodeURIComponent(first.next_cursor)}`))
      expect([...first.data, ...rest.data]).toEqual(all.data)
      const ofOne = expectOk(await get(shop.sandbox, `/api/v1/refunds?trx_id=${one}`)).data
      expect(ofOne.map((item: { readonly original_trx_id: string }) => item.original_trx_id)).toEqual([one, one])

      expect(expectOk(await get(shop.production, "/api/v1/refunds")).data).toEqual([])
      expect(expectOk(await get((await createShop(target())).sandbox, "/api/v1/refunds")).data).toEqual([])
    })

    it("refuses bad list parameters all at once, a foreign cursor, and an empty time range", async () => {
      const shop = await createShop(target())
      expectError(await get(shop.sandbox, "/api/v1/payments?limit=0&status=open&amount=1e2&since=yesterday&reference=&currency="), {
        // Empty parameters (reference=, currency=) are absent, as every optional input.
        ...INVALID, fields: ["limit", "status", "amount", "since"]
      })
      for (const amount of ["0", "-1", "1.123456789", "%2B1", "ten"]) {
        expectError(await get(shop.sandbox, `/api/v1/payments?amount=${amount}`), { ...INVALID, fields: ["amount"] })
      }
      expectError(await get(shop.sandbox, "/api/v1/payments?cursor=not-ours"), { ...INVALID, fields: ["cursor"] })
      expectError(await get(shop.sandbox, "/api/v1/payments?since=2030-01-02T00:00:00Z&until=2030-01-01T00:00:00Z"), { ...INVALID, fields: ["until"] })
      expectError(await get(shop.sandbox, "/api/v1/refunds?limit=101&trx_id=&until=later"), { ...INVALID, fields: ["limit", "until"] })
      expectError(await get(shop.sandbox, "/api/v1/refunds?cursor=not-ours"), { ...INVALID, fields: ["cursor"] })
    })
  })
