import { describe, expect, it } from "vitest"
import { MerchantTransportError } from "../../client-errors.js"
import type { MerchantClient } from "../../merchant-client.js"
import { ExitCode } from "../cli-command.js"
import { logsTailCommand } from "./logs-tail.js"
import type { RequestLogEntry } from "./request-log-lines.js"
import { fakeContext } from "./testing/fake-context.js"

const call = (id: string, createdAt: string, overrides: Partial<RequestLogEntry> = {}): RequestLogEntry => ({
  id,
  request_id: `req_${id}`,
  method: "GET",
  path: "/api/v1/site-info",
  status: 200,
  duration_ms: 7,
  idempotency_key: null,
  error: null,
  request_body: null,
  response_body: null,
  signature_check: null,
  created_at: createdAt,
  ...overrides
})

const refusedUnsignedQuery = call("c3", "2026-11-27T10:00:02.000Z", {
  method: "GET",
  path: "/api/v1/subscriptions?page=2",
  status: 401,
  error: { error_code: "INVALID_SIGNATURE", message: "Invalid signature." },
  signature_check: {
    canonical: "1800000000.GET./api/v1/subscriptions?page=2.",
    cause: "query_string_missing",
    explanation: "The signature matches the path without its query string; sign the path exactly as sent, the ? and query included."
  }
})

type Page = { readonly data: ReadonlyArray<RequestLogEntry>; readonly has_more: boolean; readonly next_cursor: string | null }

/** A host whose log answers `pages` in turn (the last one again once they run out), recording each query; Ctrl-C after `stopAfter` reads. */
const scriptedHost = (pages: ReadonlyArray<Page | Error>, stopAfter: number, stop: () => void) => {
  const queries: Array<unknown> = []
  const request = async (operationId: string, input: { readonly query?: unknown }) => {
    expect(operationId).toBe("listRequestLogs")
    queries.push(input.query)
    if (queries.length >= stopAfter) stop()
    const page = pages[Math.min(queries.length, pages.length) - 1]!
    if (page instanceof Error) throw page
    return page
  }
  return { queries, client: { request } as unknown as Partial<MerchantClient> }
}

const page = (...data: ReadonlyArray<RequestLogEntry>): Page => ({ data, has_more: false, next_cursor: null })

const tail = async (pages: ReadonlyArray<Page | Error>, stopAfter: number, args: ReadonlyArray<string> = [], json = false) => {
  let stop = () => {}
  const host = scriptedHost(pages, stopAfter, () => stop())
  const fake = fakeContext({ client: host.client, json })
  stop = () => fake.controller.abort()
  const code = await logsTailCommand({ intervalMs: 5 }).run(fake.context, args)
  return { code, queries: host.queries, ...fake }
}

describe("logs tail", () => {
  it("prints the recent calls oldest first, then new ones polled from the newest seen, each once, and stops on Ctrl-C with 0", async () => {
    const { code, queries, written } = await tail([
      page(call("c2", "2026-11-27T10:00:01.000Z"), call("c1", "2026-11-27T10:00:00.000Z")),
      page(refusedUnsignedQuery, call("c2", "2026-11-27T10:00:01.000Z")),
      page(refusedUnsignedQuery)
    ], 3, ["--status", "4XX", "--path", "/api/v1/subscriptions"])
    expect(code).toBe(ExitCode.ok)
    expect(queries).toEqual([
      { status: "4xx", path: "/api/v1/subscriptions", limit: 20 },
      { status: "4xx", path: "/api/v1/subscriptions", limit: 100, from: "2026-11-27T10:00:01.000Z" },
      { status: "4xx", path: "/api/v1/subscriptions", limit: 100, from: "2026-11-27T10:00:02.000Z" }
    ])
    expect(written.lines).toEqual([
      "10:00:00  GET /api/v1/site-info  200  7 ms  req_c1",
      "10:00:01  GET /api/v1/site-info  200  7 ms  req_c2",
      "10:00:02  GET /api/v1/subscriptions?page=2  401  7 ms  req_c3",
      "  INVALID_SIGNATURE: Invalid signature.",
      "  signature: query_string_missing: The signature matches the path without its query string; sign the path exactly as sent, the ? and query included.",
      "  canonical: \"1800000000.GET./api/v1/subscriptions?page=2.\""
    ])
  })

  it("follows every page of a busy second before printing it", async () => {
    const { queries, written } = await tail([
      page(),
      { data: [call("c3", "2026-11-27T10:00:03.000Z")], has_more: true, next_cursor: "cur_1" },
      page(call("c2", "2026-11-27T10:00:02.000Z")),
      page()
    ], 4)
    expect(queries[2]).toEqual({ limit: 100, cursor: "cur_1" })
    expect(written.lines).toEqual(["10:00:02  GET /api/v1/site-info  200  7 ms  req_c2", "10:00:03  GET /api/v1/site-info  200  7 ms  req_c3"])
  })

  it("writes one call a line under --json", async () => {
    const { written } = await tail([page(refusedUnsignedQuery)], 2, [], true)
    expect(written.data).toEqual([refusedUnsignedQuery])
    expect(written.lines).toEqual([])
  })

  it("says once that the host stopped answering, and goes on polling", async () => {
    const down = new MerchantTransportError("network", "GET", "/api/v1/request-logs", 4, undefined, { cause: new Error("ECONNREFUSED") })
    const { code, written } = await tail([page(), down, down, page(call("c1", "2026-11-27T10:00:00.000Z"))], 4)
    expect(code).toBe(ExitCode.ok)
    expect(written.problems).toEqual([
      "logs tail: GET /api/v1/request-logs got no answer in 4 attempt(s); the last failed on the network. Still trying.",
      "logs tail: the host answers again."
    ])
    expect(written.lines).toEqual(["10:00:00  GET /api/v1/site-info  200  7 ms  req_c1"])
  })

  it("answers 4 when the host cannot be read at the start, and 2 for bad flags", async () => {
    const down = new MerchantTransportError("timeout", "GET", "/api/v1/request-logs", 4, undefined, { cause: new Error("timeout") })
    expect((await tail([down], 99)).code).toBe(ExitCode.host)
    const bad = await tail([page()], 99, ["--status", "teapot"])
    expect(bad.code).toBe(ExitCode.usage)
    expect(bad.written.problems[0]).toBe("logs tail: --status takes a status such as 401 or a class such as 4xx.")
    expect((await tail([page()], 99, ["--limit", "0"])).code).toBe(ExitCode.usage)
  })
})
