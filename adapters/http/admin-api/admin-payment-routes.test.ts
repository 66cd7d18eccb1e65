import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PaymentFlags } from "../../../core/payments/payment-flags.js"
import type { Payment } from "../../../core/payments/payment.js"
import { refundPayment } from "../../../core/refunds/refund-payment.js"
import { now, toIsoString } from "../../../core/shared/instant.js"
import { makeRefundKit, type RefundKit } from "../../../end-to-end/suites/gateway-refund-kit.js"
import { httpApp } from "../app.js"

let kit: RefundKit
let handler: (request: Request) => Promise<Response>
let refunded: Payment
let plain: Payment

beforeAll(async () => {
  kit = await makeRefundKit({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-admin-payments-")), "store.db") })
  handler = HttpApp.toWebHandlerRuntime(await kit.runtime.runtime())(httpApp)
  refunded = await kit.paidPayment(kit.gateways.whole, "80.00")
  plain = await kit.paidPayment(null, "50.00")
  await kit.run(Effect.gen(function*() {
    const flags = yield* PaymentFlags
    yield* flags.raise({ trxId: refunded.trxId, gatewayId: kit.gateways.whole.id, reason: "amount_mismatch", detail: "The gateway reported 8.00 USD.", createdAt: yield* now })
    yield* flags.raise({ trxId: plain.trxId, gatewayId: null, reason: "reported_after_end", detail: "Paid after it had ended.", createdAt: yield* now })
    yield* refundPayment(kit.caller, { trxId: refunded.trxId, amount: undefined, reason: "damaged", refRefund: "rf-1" })
    yield* refundPayment(kit.caller, { trxId: plain.trxId, amount: { kind: "string", value: "12.5" }, reason: null, refRefund: null })
  }))
  kit.whole.script(refunded.trxId, [{ status: "pending", gatewayRefundReference: "re_42", message: "queued at the bank" }])
  await kit.execute()
})
afterAll(() => kit.dispose())

const get = async (path: string, token: string | null = "admin-token") => {
  const response = await handler(new Request(`http://kit.test/admin/v1${path}`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` }
  }))
  return { status: response.status, text: await response.clone().text(), body: await response.json() as any }
}

describe("GET /admin/v1/payments/{trx_id}", () => {
  it("shows the payment, its flags, its checkout attempts and its refunds with their gateway refund", async () => {
    const { status, body, text } = await get(`/payments/${refunded.trxId}`)
    expect(status).toBe(200)
    const data = body.data
    expect(Object.keys(data).sort()).toEqual([
      "amount", "checkout_attempts", "completed_at", "created_at", "currency", "environment", "failure_reason", "fee", "flags",
      "gateway_id", "merchant_id", "net", "ref_trx", "refunded_amount", "refunds", "status", "trx_id"
    ])
    expect(data).toMatchObject({
      trx_id: refunded.trxId,
      merchant_id: kit.caller.merchant.id,
      environment: "sandbox",
      ref_trx: refunded.refTrx,
      status: "success",
      failure_reason: null,
      amount: 80,
      currency: "USD",
      fee: 0,
      net: 80,
      refunded_amount: 80,
      gateway_id: kit.gateways.whole.id,
      created_at: toIsoString(refunded.createdAt),
      completed_at: toIsoString(refunded.completedAt!)
    })
    // Amounts go out as exact JSON numbers, as everywhere else in the admin API.
    expect(text).toContain('"amount":80,')
    expect(data.flags).toEqual([{ reason: "amount_mismatch", detail: "The gateway reported 8.00 USD.", gateway_id: kit.gateways.whole.id, created_at: expect.stringMatching(/Z$/) }])
    expect(data.checkout_attempts).toEqual([{ gateway_id: kit.gateways.whole.id, gateway_reference: `gw-${refunded.trxId}`, began_at: expect.stringMatching(/Z$/) }])
    expect(data.refunds).toEqual([{
      refund_trx_id: expect.any(String),
      amount: 80,
      reason: "damaged",
      ref_refund: "rf-1",
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*\.\d{6}Z$/),
      gateway_refund: { status: "pending", attempts: 1, gateway_reference: "re_42", message: "queued at the bank", next_attempt_at: expect.stringMatching(/Z$/) }
    }])
  })

  it("shows null for a refund that had no gateway refund, and for a payment no gateway took", async () => {
    const { status, body } = await get(`/payments/${plain.trxId}`)
    expect(status).toBe(200)
    expect(body.data).toMatchObject({ gateway_id: null, refunded_amount: 12.5, checkout_attempts: [] })
    expect(body.data.refunds).toMatchObject([{ amount: 12.5, reason: null, ref_refund: null, gateway_refund: null }])
  })

  it("answers 404 NOT_FOUND for a trx id that names no payment", async () => {
    const { status, body } = await get("/payments/SANDBOX_NOSUCHPAYMENT")
    expect(status).toBe(404)
    expect(body).toMatchObject({ success: false, error_code: "NOT_FOUND", message: "Payment not found." })
  })
})

describe("GET /admin/v1/payments/flagged", () => {
  it("lists recent flags newest first, each with its trx id, up to the limit", async () => {
    const all = await get("/payments/flagged")
    expect(all.status).toBe(200)
    expect(all.body.data.map((flag: any) => [flag.trx_id, flag.reason])).toEqual([[plain.trxId, "reported_after_end"], [refunded.trxId, "amount_mismatch"]])
    expect(Object.keys(all.body.data[0]).sort()).toEqual(["created_at", "detail", "gateway_id", "reason", "trx_id"])
    const one = await get("/payments/flagged?limit=1")
    expect(one.body.data.map((flag: any) => flag.trx_id)).toEqual([plain.trxId])
  })

  it("refuses a limit outside 1 to 200 with 422 on limit", async () => {
    for (const limit of ["0", "201", "ten", "-1"]) {
      const { status, body } = await get(`/payments/flagged?limit=${limit}`)
      expect([status, body.error_code, Object.keys(body.errors)], limit).toEqual([422, "VALIDATION_FAILED", ["limit"]])
    }
  })
})

describe("admin payment routes: authentication", () => {
  it("answers 401 without the admin token or with another, before looking anything up", async () => {
    for (const path of [`/payments/${refunded.trxId}`, "/payments/flagged", "/payments/SANDBOX_NOSUCHPAYMENT"]) {
      for (const token of [null, "wrong-token"]) {
        const { status, body } = await get(path, token)
        expect([status, body.error_code], `${path} ${token}`).toEqual([401, "UNAUTHORIZED"])
      }
    }
    // Merchant credentials never open the admin API.
    expect((await get(`/payments/${refunded.trxId}`, kit.caller.clientSecret)).status).toBe(401)
  })
})
