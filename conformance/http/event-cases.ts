import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import type { MerchantCaller } from "./fixtures.js"
import { createShop, gatewayMaker, IPN_URL, simulate, startSession } from "./payment-fixtures.js"
import type { Target } from "./signing.js"

interface EventBody {
  readonly id: string
  readonly type: string
  readonly object_id: string | null
  readonly sequence: number | null
  readonly created_at: string
  readonly url: string
  readonly status: string
  readonly attempts: number
}

const EVENT_FIELDS = ["attempts", "created_at", "id", "last_error", "last_status_code", "next_attempt_at", "object_id", "sequence", "status", "type", "url"]
const NO_EVENT = { status: 404, errorCode: "NOT_FOUND", message: "Event not found.", errors: {} }

const get = (caller: MerchantCaller, path: string) => caller.call({ path })
const post = (caller: MerchantCaller, path: string, body: unknown = {}) =>
  caller.call({ method: "POST", path, body: JSON.stringify(body) })

/** The merchant's events API: GET /api/v1/events, GET /api/v1/events/{id}, redeliver, recover. */
export const eventCases = (target: () => Target) =>
  describe("events API", () => {
    const makeGateway = gatewayMaker(target)

    it("lists the merchant's events newest first in cursor pages, filtered, each with its object and sequence, and no one else's", async () => {
      await makeGateway()
      const shop = await createShop(target(), { production: true })
      const trxIds: Array<string> = []
      for (let i = 0; i < 3; i++) {
        const session = await startSession(shop.sandbox)
        expect((await simulate(shop.sandbox, session.info.trx_id, "success")).status).toBe(200)
        trxIds.push(session.info.trx_id)
      }
      const all = expectOk(await get(shop.sandbox, "/api/v1/events"))
      expect(Object.keys(all).sort()).toEqual(["data", "has_more", "next_cursor", "paused_targets"])
      expect(all.paused_targets).toEqual([])
      const events = all.data as ReadonlyArray<EventBody>
      expect(new Set(events.map((e) => e.object_id))).toEqual(new Set(trxIds))
      // Newest first; events of one instant in id order, descending.
      const ordered = [...events].sort((a, b) => (a.created_at !== b.created_at ? (a.created_at > b.created_at ? -1 : 1) : a.id > b.id ? -1 : 1))
      expect(events).toEqual(ordered)
      for (const event of events) {
        expect(Object.keys(event).sort()).toEqual(EVENT_FIELDS)
        expect(event).toMatchObject({ type: "payment.completed", sequence: 1, url: IPN_URL })
        expect(event.created_at).toMatch(ISO_MICROS)
      }
      expect([all.has_more, all.next_cursor]).toEqual([false, null])

      const first = expectOk(await get(shop.sandbox, "/api/v1/events?limit=2"))
      expect([first.data.length, first.has_more]).toEqual([2, true])
      const second = expectOk(await get(shop.sandbox, `/api/v1/events?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
      expect([...first.data, ...second.data].map((e: EventBody) => e.id)).toEqual(events.map((e) => e.id))
      expect([second.has_more, second.next_cursor]).toEqual([false, null])

      const one = expectOk(await get(shop.sandbox, `/api/v1/events?object_id=${trxIds[1]}&type=payment.completed`))
      expect(one.data.map((e: EventBody) => e.object_id)).toEqual([trxIds[1]])
      expect(expectOk(await get(shop.sandbox, "/api/v1/events?type=payment.refunded")).data).toEqual([])
      // since is inclusive, until exclusive: from the oldest event on is all of them, before it none.
      const oldest = encodeURIComponent(events[2]!.created_at)
      expect(expectOk(await get(shop.sandbox, `/api/v1/events?since=${oldest}`)).data.map((e: EventBody) => e.id)).toEqual(events.map((e) => e.id))
      expect(expectOk(await get(shop.sandbox, `/api/v1/events?until=${oldest}`)).data).toEqual([])

      // Another environment of the same merchant, and another merchant, see none of them.
      expect(expectOk(await get(shop.production, "/api/v1/events")).data).toEqual([])
      const stranger = await createShop(target())
      expect(expectOk(await get(stranger.sandbox, "/api/v1/events")).data).toEqual([])
      for (const caller of [shop.production, stranger.sandbox]) {
        expectError(await get(caller, `/api/v1/events/${events[0]!.id}`), NO_EVENT)
        expectError(await post(caller, `/api/v1/events/${events[0]!.id}/redeliver`), NO_EVENT)
      }

      const detail = expectOk(await get(shop.sandbox, `/api/v1/events/${events[0]!.id}`))
      expect(Object.keys(detail).sort()).toEqual([...EVENT_FIELDS, "attempt_log"].sort())
      expect(detail.id).toBe(events[0]!.id)
      expect(Array.isArray(detail.attempt_log)).toBe(true)
    })

    it("queues an event again on redeliver, and a range's failed events once on recover", async () => {
      await makeGateway()
      const shop = await createShop(target())
      const session = await startSession(shop.sandbox)
      expect((await simulate(shop.sandbox, session.info.trx_id, "success")).status).toBe(200)
      const [event] = expectOk(await get(shop.sandbox, "/api/v1/events")).data as ReadonlyArray<EventBody>
      // The dispatcher may be sending it this very moment (409); it is pending again once it is not.
      let redelivered = await post(shop.sandbox, `/api/v1/events/${event!.id}/redeliver`)
      for (let i = 0; i < 50 && redelivered.status === 409; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        redelivered = await post(shop.sandbox, `/api/v1/events/${event!.id}/redeliver`)
      }
      const again = expectOk(redelivered)
      expect(again).toMatchObject({ id: event!.id, status: "pending", attempts: 0, object_id: session.info.trx_id, sequence: 1 })

      // The merchant had no events an hour before it existed: recover queues nothing there. (What it
      // queues when events failed needs a receiver this suite cannot host; the kit's own suites show it.)
      const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString()
      const recovered = await post(shop.sandbox, "/api/v1/events/recover", { since: hoursAgo(2), until: hoursAgo(1) })
      expect(expectOk(recovered)).toEqual({ queued: 0, resumed_targets: 0 })
    })

    it("refuses bad list parameters all at once, a foreign cursor, and a recover range that is not one", async () => {
      const shop = await createShop(target())
      const bad = await get(shop.sandbox, "/api/v1/events?limit=0&since=yesterday&until=2030-13-01T00:00:00Z&type=")
      // An empty parameter is absent (type=), as every optional input.
      expectError(bad, { status: 422, errorCode: "VALIDATION_FAILED", fields: ["limit", "since", "until"] })
      expectError(await get(shop.sandbox, "/api/v1/events?cursor=not-ours"), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["cursor"] })
      expectError(await get(shop.sandbox, "/api/v1/events?limit=101"), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["limit"] })
      expectError(await post(shop.sandbox, "/api/v1/events/recover", {}), { status: 422, errorCode: "VALIDATION_FAILED", fields: ["since"] })
      expectError(await post(shop.sandbox, "/api/v1/events/recover", { since: "2030-01-02T00:00:00Z", until: "2030-01-01T00:00:00Z" }), {
        status: 422, errorCode: "VALIDATION_FAILED", fields: ["until"]
      })
      expectError(await get(shop.sandbox, "/api/v1/events/00000000-0000-4000-8000-000000000000"), NO_EVENT)
    })
  })
