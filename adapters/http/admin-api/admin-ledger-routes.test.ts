import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { updateMerchant } from "../../../core/merchants/merchant-admin.js"
import { refundPayment } from "../../../core/refunds/refund-payment.js"
import { makeRefundKit, type RefundKit } from "../../../end-to-end/suites/gateway-refund-kit.js"
import { httpApp } from "../app.js"

let kit: RefundKit
let handler: (request: Request) => Promise<Response>

beforeAll(async () => {
  kit = await makeRefundKit({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-admin-ledger-")), "store.db") })
  handler = HttpApp.toWebHandlerRuntime(await kit.runtime.runtime())(httpApp)
  // 2.5% + 0.30: a payment of 80.00 keeps 2.30 for the platform, 77.70 for the merchant.
  await kit.run(updateMerchant(kit.caller.merchant.id, { feePercent: { kind: "string", value: "2.5" }, feeFixed: { kind: "string", value: "0.30" } }))
  const paid = await kit.paidPayment(null, "80.00")
  await kit.run(refundPayment(kit.caller, { trxId: paid.trxId, amount: { kind: "string", value: "12.5" }, reason: null, refRefund: null }))
})
afterAll(() => kit.dispose())

const get = async (path: string, token: string | null = "admin-token") => {
  const response = await handler(new Request(`http://kit.test/admin/v1${path}`, {
    headers: token === null ? {} : { authorization: `Bearer ${token}` }
  }))
  return { status: response.status, text: await response.clone().text(), body: await response.json() as any }
}

describe("GET /admin/v1/ledger/trial-balance", () => {
  it("lists every account of the book with its balance, exact, and their sum: zero", async () => {
    const { status, text } = await get("/ledger/trial-balance?environment=sandbox&currency=USD")
    expect(status).toBe(200)
    const wallet = `merchant:${kit.caller.merchant.id}:wallet`
    // Clearing 80 - 12.5 = 67.5; fees -2.3; the wallet -(77.7 - 12.5) = -65.2. Written as the admin API writes a balance.
    expect(JSON.parse(text)).toEqual({
      data: {
        accounts: [
          { account: "gateway:clearing", balance: 67.5 },
          { account: wallet, balance: -65.2 },
          { account: "platform:fees", balance: -2.3 }
        ],
        sum: 0
      }
    })
  })

  it("keeps the books apart: production and another currency are empty", async () => {
    expect((await get("/ledger/trial-balance?environment=production&currency=USD")).body).toEqual({ data: { accounts: [], sum: 0 } })
    expect((await get("/ledger/trial-balance?environment=sandbox&currency=EUR")).body).toEqual({ data: { accounts: [], sum: 0 } })
  })

  it("requires both parameters, tells every bad one at once, and refuses a currency it does not know", async () => {
    const missing = await get("/ledger/trial-balance")
    expect(missing.status).toBe(422)
    expect(missing.body).toMatchObject({
      error_code: "VALIDATION_FAILED",
      errors: { environment: ["The environment parameter is required."], currency: ["The currency parameter is required."] }
    })
    const bad = await get("/ledger/trial-balance?environment=live&currency=")
    expect(bad.status).toBe(422)
    expect(bad.body.errors).toEqual({
      environment: ["The environment parameter must be one of: sandbox, production."],
      currency: ["The currency parameter is required."]
    })
    const unknown = await get("/ledger/trial-balance?environment=sandbox&currency=XQQ")
    expect(unknown.status).toBe(422)
    expect(unknown.body).toMatchObject({ error_code: "INVALID_CURRENCY", errors: { currency: ["Unsupported currency code: XQQ."] } })
  })

  it("is the operator's: no token, no books", async () => {
    expect((await get("/ledger/trial-balance?environment=sandbox&currency=USD", null)).status).toBe(401)
  })
})
