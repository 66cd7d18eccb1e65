import { describe, expect, it } from "vitest"
import { MerchantApiError, MerchantTransportError } from "../../client-errors.js"
import type { Event, EventPage, ListEventsQuery } from "../../event-types.js"
import { ExitCode } from "../cli-command.js"
import { eventsList } from "./events-list.js"
import { eventsResend } from "./events-resend.js"
import { fakeContext } from "./testing/fake-context.js"

const event = (id: string, overrides: Partial<Event> = {}): Event => ({
  id,
  type: "payment.completed",
  object_id: "TRX1",
  sequence: 1,
  created_at: "2026-11-27T10:00:00.000Z",
  url: "https://shop.example/ipn",
  status: "delivered",
  attempts: 1,
  next_attempt_at: null,
  last_status_code: 200,
  last_error: null,
  ...overrides
})

const listing = (page: Partial<EventPage>) => {
  const queries: Array<ListEventsQuery> = []
  const listEvents = async (query: ListEventsQuery = {}) => {
    queries.push(query)
    return { data: [], has_more: false, next_cursor: null, paused_targets: [], ...page } satisfies EventPage
  }
  return { queries, listEvents }
}

const refused = (status: number, errorCode: string, message: string) =>
  new MerchantApiError({ status, method: "POST", path: "/api/v1/events/evt_1/redeliver", body: { success: false, message, error_code: errorCode, errors: {}, timestamp: "" }, retryAfterMs: undefined, attempts: 1 })

describe("events list", () => {
  it("prints a table, newest first as the host answers, the failed in red, and passes --type and --limit", async () => {
    const host = listing({
      data: [event("evt_2", { status: "failed", attempts: 3, last_status_code: null, last_error: "connection refused", type: "payment.refunded" }), event("evt_1")],
      has_more: true,
      next_cursor: "cur_9",
      paused_targets: [{ target: "https://shop.example", failing_since: "2026-11-26T00:00:00.000Z", paused_at: "2026-11-27T00:00:00.000Z" }]
    })
    const fake = fakeContext({ tty: true, client: { listEvents: host.listEvents } })
    expect(await eventsList.run(fake.context, ["--type", "payment.refunded", "--limit", "2"])).toBe(ExitCode.ok)
    expect(host.queries).toEqual([{ type: "payment.refunded", limit: 2 }])
    const [heading, failed, delivered, ...rest] = fake.written.lines
    expect(heading).toMatch(/^CREATED +ID +TYPE +STATUS +ATTEMPTS +LAST RESULT$/)
    expect(failed).toMatch(/evt_2 +payment\.refunded +failed +3 +connection refused$/)
    expect(delivered).toMatch(/evt_1 +payment\.completed +delivered +1 +HTTP 200$/)
    expect(rest).toEqual([
      "paused: https://shop.example failing since 2026-11-26T00:00:00.000Z; its events wait until recovered",
      "more: events list --cursor cur_9"
    ])
  })

  it("writes one event a line under --json, and nothing else", async () => {
    const host = listing({ data: [event("evt_2"), event("evt_1")] })
    const fake = fakeContext({ json: true, client: { listEvents: host.listEvents } })
    expect(await eventsList.run(fake.context, [])).toBe(ExitCode.ok)
    expect(fake.written.data.map((value) => (value as Event).id)).toEqual(["evt_2", "evt_1"])
    expect(fake.written.lines).toEqual([])
  })

  it("refuses a bad limit or an argument with the usage, and a host's refusal with its message", async () => {
    const fake = fakeContext({ client: listing({}) })
    expect(await eventsList.run(fake.context, ["--limit", "500"])).toBe(ExitCode.usage)
    expect(await eventsList.run(fake.context, ["evt_1"])).toBe(ExitCode.usage)
    expect(fake.written.problems.join("\n")).toContain("--limit must be a whole number from 1 to 100.")
    expect(fake.written.problems.join("\n")).toContain("usage: merchant-payments events list")
    const down = fakeContext({
      client: { listEvents: async () => Promise.reject(new MerchantTransportError("network", "GET", "/api/v1/events", 4, undefined, { cause: new Error("ECONNREFUSED") })) }
    })
    expect(await eventsList.run(down.context, [])).toBe(ExitCode.host)
    expect(down.written.problems).toEqual(["events list: GET /api/v1/events got no answer in 4 attempt(s); the last failed on the network."])
  })
})

describe("events resend", () => {
  it("queues the event again and says where it goes", async () => {
    const asked: Array<string> = []
    const fake = fakeContext({ client: { redeliverEvent: async (id: string) => (asked.push(id), event(id, { status: "pending", attempts: 0 })) } })
    expect(await eventsResend.run(fake.context, ["evt_7"])).toBe(ExitCode.ok)
    expect(asked).toEqual(["evt_7"])
    expect(fake.text()).toBe("queued again: evt_7 (payment.completed) to https://shop.example/ipn, status pending")
  })

  it("needs exactly one event id, and prints the host's refusal", async () => {
    const fake = fakeContext({ client: { redeliverEvent: async () => Promise.reject(refused(409, "DELIVERY_IN_FLIGHT", "The event is being sent now.")) } })
    expect(await eventsResend.run(fake.context, [])).toBe(ExitCode.usage)
    expect(await eventsResend.run(fake.context, ["a", "b"])).toBe(ExitCode.usage)
    expect(await eventsResend.run(fake.context, ["evt_1"])).toBe(ExitCode.host)
    expect(fake.written.problems.at(-1)).toBe("events resend: POST /api/v1/events/evt_1/redeliver answered 409 DELIVERY_IN_FLIGHT: The event is being sent now.")
  })
})
