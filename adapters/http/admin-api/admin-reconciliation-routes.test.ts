import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { refundPayment } from "../../../core/refunds/refund-payment.js"
import { makeRefundKit, type RefundKit } from "../../../end-to-end/suites/gateway-refund-kit.js"
import { httpApp } from "../app.js"

let kit: RefundKit
let handler: (request: Request) => Promise<Response>
let matchedTrx: string
let differsTrx: string
let unsettledTrx: string
let refundReference: string
let refundedTrx: string

const PERIOD = "from=2030-01-01T00:00:00Z&to=2030-02-01T00:00:00Z"
const HEADER = "gateway,environment,gateway_reference,type,amount,currency,settled_at"

beforeAll(async () => {
  kit = await makeRefundKit({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-admin-recon-")), "store.db") })
  handler = HttpApp.toWebHandlerRuntime(await kit.runtime.runtime())(httpApp)
  matchedTrx = (await kit.paidPayment(kit.gateways.whole, "80.00")).trxId
  differsTrx = (await kit.paidPayment(kit.gateways.whole, "20.00")).trxId
  unsettledTrx = (await kit.paidPayment(kit.gateways.whole, "5.00")).trxId
  // Another gateway's payment: never this gateway's report.
  await kit.paidPayment(kit.gateways.none, "7.00")
  // This gateway refunds whole payments only.
  refundedTrx = (await kit.paidPayment(kit.gateways.whole, "12.50")).trxId
  const refund = await kit.run(refundPayment(kit.caller, { trxId: refundedTrx, amount: { kind: "string", value: "12.5" }, reason: null, refRefund: null }))
  await kit.execute()
  refundReference = `re_${refund.refund.refundTrxId}`
})
afterAll(() => kit.dispose())

const call = async (method: string, path: string, body?: string, contentType = "text/csv") => {
  const response = await handler(new Request(`http://kit.test/admin/v1${path}`, {
    method,
    headers: { authorization: "Bearer admin-token", ...(body !== undefined ? { "content-type": contentType } : {}) },
    ...(body !== undefined ? { body } : {})
  }))
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, body: response.headers.get("content-type")?.startsWith("application/json") ? JSON.parse(text) : undefined }
}

const csvOf = (...lines: ReadonlyArray<string>) => [HEADER, ...lines].join("\r\n") + "\r\n"

describe("/admin/v1/reconciliation", () => {
  it("reconciles an uploaded settlement CSV: every outcome counted, each line listed with both sides and downloadable", async () => {
    const code = kit.gateways.whole.code
    const uploaded = await call("POST", `/reconciliation/reports?${PERIOD}`, csvOf(
      `${code},sandbox,gw-${matchedTrx},payment,80.00,USD,2030-01-15T10:00:00Z`,
      `${code},sandbox,gw-${differsTrx},payment,19.99,USD,2030-01-15T10:00:01Z`,
      `${code},sandbox,gw-unknown,payment,3.00,USD,2030-01-16T00:00:00Z`,
      `${code},sandbox,gw-${matchedTrx},fee,-2.62,USD,2030-01-15T10:00:00Z`,
      `${code},sandbox,"${refundReference}",refund,-12.50,USD,2030-01-17T08:00:00Z`,
      `${code},sandbox,gw-${refundedTrx},payment,12.50,USD,2030-01-15T10:00:02Z`
    ))
    expect(uploaded.status).toBe(201)
    expect(uploaded.body.data).toMatchObject({
      gateway: code,
      gateway_id: kit.gateways.whole.id,
      environment: "sandbox",
      from: "2030-01-01T00:00:00.000000Z",
      to: "2030-02-01T00:00:00.000000Z",
      source: "upload",
      line_count: 6,
      counts: { matched: 3, amount_differs: 1, missing_in_kit: 1, missing_at_gateway: 1, gateway_only: 1 }
    })
    const id = uploaded.body.data.id as string

    expect((await call("GET", `/reconciliation/reports/${id}`)).body.data).toEqual(uploaded.body.data)
    expect((await call("GET", "/reconciliation/reports")).body.data.map((report: { id: string }) => report.id)).toContain(id)

    const differs = await call("GET", `/reconciliation/reports/${id}/lines?outcome=amount_differs`)
    expect(differs.text).toContain("\"gateway_amount\":19.99")
    expect(differs.body.data).toMatchObject([{ line: 3, outcome: "amount_differs", gateway_reference: `gw-${differsTrx}`, kit_record: differsTrx, kit_amount: 20, kit_currency: "USD" }])
    const missing = await call("GET", `/reconciliation/reports/${id}/lines?outcome=missing_at_gateway`)
    expect(missing.body.data).toMatchObject([{ line: 8, gateway_reference: `gw-${unsettledTrx}`, gateway_amount: null, settled_at: null, kit_record: unsettledTrx, kit_amount: 5 }])
    const refund = (await call("GET", `/reconciliation/reports/${id}/lines?outcome=matched`)).body.data[1]
    expect(refund).toMatchObject({ line: 6, type: "refund", gateway_amount: -12.5, kit_amount: -12.5 })

    const first = await call("GET", `/reconciliation/reports/${id}/lines?limit=4`)
    expect(first.body.data.map((line: { line: number }) => line.line)).toEqual([2, 3, 4, 5])
    expect(first.body.has_more).toBe(true)
    const rest = await call("GET", `/reconciliation/reports/${id}/lines?limit=4&cursor=${first.body.next_cursor}`)
    expect(rest.body).toMatchObject({ has_more: false, next_cursor: null })
    expect(rest.body.data.map((line: { line: number }) => line.line)).toEqual([6, 7, 8])

    const download = await call("GET", `/reconciliation/reports/${id}/lines.csv?outcome=amount_differs`)
    expect(download.status).toBe(200)
    expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8")
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="reconciliation-${id}-amount_differs.csv"`)
    expect(download.text).toBe(
      "line,outcome,type,gateway_reference,currency,gateway_amount,settled_at,kit_record,kit_amount,kit_currency,kit_at\r\n" +
        `3,amount_differs,payment,gw-${differsTrx},USD,19.99,2030-01-15T10:00:01.000000Z,${differsTrx},20.00,USD,${differs.body.data[0].kit_at}\r\n`
    )
    expect((await call("GET", `/reconciliation/reports/${id}/lines.csv`)).text.split("\r\n")).toHaveLength(1 + 7 + 1)

    const audit = await call("GET", "/audit?limit=5")
    expect(audit.body.data.map((entry: { operation: string }) => entry.operation)).toContain("uploadReconciliationReport")
  })

  it("refuses a bad file whole, naming its first bad line and column, and stores nothing", async () => {
    const code = kit.gateways.whole.code
    const before = (await call("GET", "/reconciliation/reports")).body.data.length
    const bad = await call("POST", `/reconciliation/reports?${PERIOD}`, csvOf(
      `${code},sandbox,gw-1,payment,80.00,USD,2030-01-15T10:00:00Z`,
      `${code},sandbox,gw-2,payment,1.005,USD,2030-01-15T10:00:00Z`,
      `${code},sandbox,gw-3,payment,oops,USD,2030-01-15T10:00:00Z`
    ))
    expect(bad.status).toBe(422)
    expect(bad.body).toMatchObject({ error_code: "VALIDATION_FAILED", errors: { amount: ["Line 3, column amount: The amount must not have more than 2 decimal places in this currency."] } })
    const outside = await call("POST", `/reconciliation/reports?${PERIOD}`, csvOf(`${code},sandbox,gw-1,payment,1.00,USD,2030-02-01T00:00:00Z`))
    expect(outside.body.errors).toEqual({ settled_at: ["Line 2, column settled_at: it must be inside the report's period [from, to)."] })
    const unknown = await call("POST", `/reconciliation/reports?${PERIOD}`, csvOf("nope-usd,sandbox,gw-1,payment,1.00,USD,2030-01-02T00:00:00Z"))
    expect(unknown.body.errors).toEqual({ gateway: ["No gateway has the code \"nope-usd\"."] })
    const header = await call("POST", `/reconciliation/reports?${PERIOD}`, "gateway,amount\r\n")
    expect(header.body.errors.environment[0]).toMatch(/^Line 1, column environment: the header must name the columns/)
    expect((await call("POST", "/reconciliation/reports", csvOf())).body.errors).toEqual({
      from: ["The from parameter is required."],
      to: ["The to parameter is required."]
    })
    const json = await call("POST", `/reconciliation/reports?${PERIOD}`, "{}", "application/json")
    expect(json.status).toBe(415)
    expect(json.body.message).toBe("The request body must be sent as text/csv.")
    expect((await call("GET", "/reconciliation/reports")).body.data.length).toBe(before)
  })

  it("answers 404 for a report it does not have, and 422 for a run on a gateway whose plugin gives no settlement", async () => {
    expect((await call("GET", "/reconciliation/reports/rr_0123456789abcdef0123456789abcdef")).status).toBe(404)
    expect((await call("GET", "/reconciliation/reports/rr_0123456789abcdef0123456789abcdef/lines.csv")).status).toBe(404)
    const run = await call("POST", "/reconciliation/runs", JSON.stringify({
      gateway: kit.gateways.whole.code,
      environment: "sandbox",
      from: "2030-01-01T00:00:00Z",
      to: "2030-02-01T00:00:00Z"
    }), "application/json")
    expect(run.status).toBe(422)
    expect(run.body).toMatchObject({ message: "The gateway cannot give a settlement report.", errors: { gateway: [expect.stringContaining("upload its settlement CSV")] } })
  })
})
