import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AuditLog } from "../../../core/audit/audit-log.js"
import { makeCurrencyCatalog } from "../../../core/money/currencies.js"
import { defaultSiteSettings } from "../../../core/settings/site-settings.js"
import { makeManualClock } from "../../../core/shared/manual-clock.js"
import { StorageError } from "../../../core/shared/storage-error.js"
import { defaultWebhookConfig, kitLayer } from "../../../hosts/kit-layer.js"
import { httpApp } from "../app.js"
import { adminTokenActorId } from "../endpoint/admin-audit-entry.js"

const TOKEN = "admin-token-of-the-audit-test"
const START = Date.UTC(2030, 0, 1, 9, 0, 0)

const currencies = makeCurrencyCatalog({ cryptoCodes: [] })
if (currencies._tag === "Left") throw currencies.left

const manualClock = makeManualClock(START)
const runtime = ManagedRuntime.make(kitLayer({
  store: { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-audit-")), "store.db") },
  masterKey: new Uint8Array(32).fill(7),
  adminToken: TOKEN,
  settings: defaultSiteSettings,
  currencies: currencies.right,
  baseUrl: "http://kit.test",
  checkoutLifetimeSeconds: 3600,
  webhooks: defaultWebhookConfig,
  backgroundJobs: false,
  manualClock
}))

let handler: (request: Request) => Promise<Response>
/** The same app with an audit log whose every write fails: a change must then not stand. */
let brokenAuditHandler: (request: Request) => Promise<Response>

const brokenAuditLog = Layer.effect(AuditLog, Effect.map(AuditLog, (log) => AuditLog.of({
  ...log,
  record: () => Effect.fail(new StorageError({ message: "the audit log is full" }))
})))

beforeAll(async () => {
  const context = await runtime.runtime()
  // Hosts run the app on the manual clock this way (hosts/embedding/mounted-app.ts).
  const app = httpApp.pipe(Effect.withClock(manualClock.clock))
  handler = HttpApp.toWebHandlerRuntime(context)(app)
  brokenAuditHandler = HttpApp.toWebHandlerRuntime(context)(
    Effect.provide(app, brokenAuditLog.pipe(Layer.provide(Layer.succeedContext(context.context))))
  )
})
afterAll(() => runtime.dispose())

const call = async (method: string, path: string, body?: unknown, options: { readonly token?: string; readonly via?: typeof handler; readonly requestId?: string } = {}) => {
  const response = await (options.via ?? handler)(new Request(`http://kit.test/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${options.token ?? TOKEN}`,
      "content-type": "application/json",
      ...(options.requestId !== undefined ? { "x-request-id": options.requestId } : {})
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  }))
  const text = await response.text()
  return { status: response.status, text, body: text === "" ? undefined : JSON.parse(text) }
}

const advance = (seconds: number) => call("POST", "/clock/advance", { seconds })
const iso = (millis: number) => new Date(millis).toISOString()

/** Every entry the log lists for `query`, following next_cursor a page of `limit` at a time. */
const everyPage = async (query: string, limit: number) => {
  const pages: Array<ReadonlyArray<Record<string, any>>> = []
  let cursor: string | null = null
  do {
    const page: { status: number; body: any } = await call("GET", `/audit?limit=${limit}${query}${cursor === null ? "" : `&cursor=${cursor}`}`)
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    expect(page.body.data.length).toBeLessThanOrEqual(limit)
    expect(page.body.has_more).toBe(page.body.next_cursor !== null)
    pages.push(page.body.data)
    cursor = page.body.next_cursor
  } while (cursor !== null)
  return pages
}

let merchantId: number
let otherMerchantId: number
let issued: Record<string, string>

beforeAll(async () => {
  const created = await call("POST", "/merchants", { name: "Audited Books", fee_percent: "2.9" }, { requestId: "req-create-1" })
  expect(created.status).toBe(201)
  merchantId = created.body.id
  otherMerchantId = (await call("POST", "/merchants", { name: "Someone Else" })).body.id
  expect((await call("GET", `/merchants/${merchantId}`)).status).toBe(200)
  expect((await call("GET", "/settings")).status).toBe(200)
  await advance(60)
  const credentials = await call("POST", `/merchants/${merchantId}/credentials`, { environment: "sandbox", overlap_seconds: 60 })
  expect(credentials.status).toBe(201)
  issued = credentials.body
  expect((await call("PATCH", "/settings", { site_name: "Audit Pay", rate_limit_per_minute: 300 })).status).toBe(200)
  expect((await call("PATCH", `/merchants/${merchantId}`, { status: "sideways" })).status).toBe(422)
  expect((await call("POST", `/merchants/${merchantId}/credentials/end-overlap`, { environment: "sandbox" })).status).toBe(200)
  await advance(60)
  expect((await call("POST", "/gateways", { plugin: "sandbox", name: "Audited", currency_code: "USD", method: "audited" })).status).toBe(201)
  expect((await call("POST", "/scheduler/run")).status).toBe(200)
  // Not admin actions: a wrong token never reaches the log.
  expect((await call("PATCH", "/settings", { site_name: "Intruder" }, { token: "wrong" })).status).toBe(401)
})

describe("GET /admin/v1/audit", () => {
  it("lists every admin change, done or refused, newest first, and no read", async () => {
    const { status, body } = await call("GET", "/audit")
    expect(status).toBe(200)
    expect(body.data.map((entry: any) => [entry.operation, entry.status])).toEqual([
      ["runScheduler", 200],
      ["createGateway", 201],
      ["advanceClock", 200],
      ["endCredentialOverlap", 200],
      ["updateMerchant", 422],
      ["updateSettings", 200],
      ["issueCredentials", 201],
      ["advanceClock", 200],
      ["createMerchant", 201],
      ["createMerchant", 201]
    ])
    expect(body.has_more).toBe(false)
    expect(body.next_cursor).toBe(null)
  })

  it("says who, from where, when and what, with field names only", async () => {
    const { body } = await call("GET", `/audit?merchant_id=${merchantId}`)
    const byOperation = Object.fromEntries(body.data.map((entry: any) => [`${entry.operation} ${entry.status}`, entry]))
    expect(byOperation["createMerchant 201"]).toEqual({
      id: expect.any(Number),
      created_at: "2030-01-01T09:00:00.000000Z",
      actor_type: "admin_token",
      actor_id: adminTokenActorId(TOKEN),
      source_address: "unknown",
      operation: "createMerchant",
      method: "POST",
      route: "/admin/v1/merchants",
      path_params: {},
      merchant_id: merchantId,
      status: 201,
      fields: ["fee_percent", "name"],
      request_id: "req-create-1"
    })
    expect(byOperation["issueCredentials 201"]).toMatchObject({
      created_at: "2030-01-01T09:01:00.000000Z",
      route: "/admin/v1/merchants/{id}/credentials",
      path_params: { id: String(merchantId) },
      merchant_id: merchantId,
      fields: ["environment", "overlap_seconds"],
      request_id: expect.stringMatching(/^[0-9a-f-]{36}$/)
    })
    expect(byOperation["updateMerchant 422"]).toMatchObject({ method: "PATCH", fields: ["status"], merchant_id: merchantId })
    expect(adminTokenActorId(TOKEN)).toMatch(/^admin:[0-9a-f]{12}$/)
  })

  it("keeps no secret: not the token, not the credentials issued, not a value sent", async () => {
    const { text } = await call("GET", "/audit?limit=200")
    for (const secret of [TOKEN, issued["api_key"], issued["client_secret"], issued["webhook_secret"], "Audit Pay", "sideways", "Audited Books"]) {
      expect(text).not.toContain(secret)
    }
  })

  it("pages by next_cursor without a gap or a repeat, entries of one instant included", async () => {
    const all = (await call("GET", "/audit?limit=200")).body.data.map((entry: any) => entry.id)
    for (const limit of [1, 3, 4]) {
      const pages = await everyPage("", limit)
      expect(pages.flat().map((entry) => entry["id"])).toEqual(all)
    }
    // An entry recorded while paging lands on the first page, never in the middle of a walk.
    const first = await call("GET", "/audit?limit=3")
    await call("PATCH", `/merchants/${otherMerchantId}`, { name: "Someone Else Again" })
    const second = await call("GET", `/audit?limit=3&cursor=${first.body.next_cursor}`)
    expect(second.body.data.map((entry: any) => entry.id)).toEqual(all.slice(3, 6))
  })

  it("filters by merchant and by time, newest first", async () => {
    const mine = (await everyPage(`&merchant_id=${merchantId}`, 2)).flat()
    expect(mine.map((entry) => entry["operation"])).toEqual(["endCredentialOverlap", "updateMerchant", "issueCredentials", "createMerchant"])
    expect(mine.every((entry) => entry["merchant_id"] === merchantId)).toBe(true)
    // A clock advance is stamped with the time it moved to: the time it answered.
    const minute = await call("GET", `/audit?since=${iso(START + 60_000)}&until=${iso(START + 120_000)}`)
    expect(minute.body.data.map((entry: any) => entry.operation)).toEqual(["endCredentialOverlap", "updateMerchant", "updateSettings", "issueCredentials", "advanceClock"])
    const before = await call("GET", `/audit?until=${encodeURIComponent("2030-01-01T10:00:30+01:00")}`)
    expect(before.body.data.map((entry: any) => entry.operation)).toEqual(["createMerchant", "createMerchant"])
    expect((await call("GET", `/audit?merchant_id=9999999999`)).body.data).toEqual([])
  })

  it("refuses a bad cursor or filter with 422 naming each", async () => {
    const bad = await call("GET", "/audit?limit=0&merchant_id=abc&since=yesterday&until=2030-02-30T00:00:00Z")
    expect(bad.status).toBe(422)
    expect(Object.keys(bad.body.errors).sort()).toEqual(["limit", "merchant_id", "since", "until"])
    const cursor = await call("GET", "/audit?cursor=not-a-cursor")
    expect(cursor.status).toBe(422)
    expect(cursor.body.errors).toEqual({ cursor: ["The cursor must be a next_cursor this API gave."] })
    const forged = await call("GET", `/audit?cursor=${btoa("12.x")}`)
    expect(forged.status).toBe(422)
    const range = await call("GET", `/audit?since=${iso(START)}&until=${iso(START)}`)
    expect(range.status).toBe(422)
    expect(range.body.errors).toEqual({ until: ["The until time must be after since."] })
    expect((await call("GET", "/audit?limit=201")).status).toBe(422)
  })
})

describe("a change whose audit entry cannot be written", () => {
  it("is rolled back and answered as the store's failure; a refusal too", async () => {
    const latestBefore = (await call("GET", "/audit?limit=1")).body.data[0]
    const failed = await call("PATCH", `/merchants/${merchantId}`, { name: "Renamed Unaudited" }, { via: brokenAuditHandler })
    expect(failed.status).toBe(500)
    expect(failed.body.error_code).toBe("SERVER_ERROR")
    expect((await call("GET", `/merchants/${merchantId}`)).body.name).toBe("Audited Books")
    const refused = await call("PATCH", `/merchants/${merchantId}`, { status: "sideways" }, { via: brokenAuditHandler })
    expect(refused.status).toBe(500)
    // A read needs no entry, so it still answers.
    expect((await call("GET", "/settings", undefined, { via: brokenAuditHandler })).status).toBe(200)
    expect((await call("GET", "/audit?limit=1")).body.data[0]).toEqual(latestBefore)
  })
})
