import { describe, expect, it } from "vitest"
import { expectError, expectOk, ISO_MICROS } from "./assertions.js"
import { createShop, simulate, startSession, uniqueRef, verify, verifyPath } from "./payment-fixtures.js"
import type { HttpResult, Target } from "./signing.js"

const VERIFY_KEYS = [
  "amount", "created_at", "currency", "customer", "description", "fee", "fully_refunded", "net_amount",
  "refunded_amount", "status", "trx_id", "updated_at"
]

const NOT_FOUND = { status: 404, errorCode: "NOT_FOUND", errors: {} } as const

/** The 2.3 body: every field, exact timestamps, refund fields always present. */
const expectTransaction = (response: HttpResult) => {
  const body = expectOk(response)
  expect(Object.keys(body).sort()).toEqual(VERIFY_KEYS)
  expect(["pending", "success", "failed"]).toContain(body.status)
  expect(body.created_at).toMatch(ISO_MICROS)
  expect(body.updated_at).toMatch(ISO_MICROS)
  // Same format, so text order is time order; a manual clock may make them equal.
  expect(body.updated_at >= body.created_at).toBe(true)
  expect(Object.keys(body.customer).sort()).toEqual(["email", "name"])
  for (const field of ["amount", "fee", "net_amount", "refunded_amount"]) expect(typeof body[field]).toBe("number")
  expect(response.text).toContain('"refunded_amount":0,')
  expect(response.text).toMatch(/"fully_refunded":false[,}]/)
  return body
}

/** Spec 4.2 and 2.3: the merchant's own transaction, in its own environment, and nothing else. */
export const verifyCases = (target: () => Target) =>
  describe("verify-payment", () => {
    it("answers 200 with the 2.3 body: pending before payment, fields as sent, ISO 8601 UTC microsecond timestamps", async () => {
      const shop = await createShop(target())
      const fields = { description: "Two teas <hot>", customer_name: "Ada Lovelace", customer_email: "ada@shop.example", ref_trx: uniqueRef() }
      const session = await startSession(shop.sandbox, "42.50", fields)
      const response = await verify(shop.sandbox, session.info.trx_id)
      const body = expectTransaction(response)
      expect(body).toMatchObject({
        status: "pending",
        trx_id: session.info.trx_id,
        amount: 42.5,
        currency: "USD",
        customer: { name: "Ada Lovelace", email: "ada@shop.example" },
        description: "Two teas <hot>",
        refunded_amount: 0,
        fully_refunded: false
      })
      expect(response.text).toContain('"amount":42.5,')
      // Reading does not change anything.
      expect(expectTransaction(await verify(shop.sandbox, session.info.trx_id))).toEqual(body)
    })

    it("reports success with fee and net after payment, still with refunded_amount 0 and fully_refunded false", async () => {
      const shop = await createShop(target(), { merchant: { fee_percent: 1, fee_fixed: 0 } })
      const session = await startSession(shop.sandbox, "10")
      const before = expectTransaction(await verify(shop.sandbox, session.info.trx_id))
      expectOk(await simulate(shop.sandbox, session.info.trx_id, "success"))
      const response = await verify(shop.sandbox, session.info.trx_id)
      const after = expectTransaction(response)
      expect(after).toMatchObject({ status: "success", amount: 10, fee: 0.1, net_amount: 9.9, fully_refunded: false, refunded_amount: 0 })
      expect(after.created_at).toBe(before.created_at)
      expect(response.text).toContain('"fee":0.1,')
      expect(response.text).toContain('"net_amount":9.9,')
    })

    it("answers 404 for another merchant's transaction, for the wrong environment, and for an unknown id", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const other = await createShop(target(), { production: true, wallets: ["USD"] })
      const sandbox = (await startSession(shop.sandbox, "10")).info.trx_id as string
      const production = (await startSession(shop.production, "10")).info.trx_id as string
      expectOk(await verify(shop.sandbox, sandbox))
      expectOk(await verify(shop.production, production))
      expectError(await verify(other.sandbox, sandbox), NOT_FOUND)
      expectError(await verify(other.production, production), NOT_FOUND)
      expectError(await verify(shop.production, sandbox), NOT_FOUND)
      expectError(await verify(shop.sandbox, production), NOT_FOUND)
      for (const unknown of [`SANDBOX_${"0".repeat(26)}`, sandbox.replace(/.$/, (c) => (c === "A" ? "B" : "A")), sandbox.toLowerCase(), "nope"]) {
        expectError(await verify(shop.sandbox, unknown), NOT_FOUND)
      }
      // Found or not, the refusal is the same shape and says nothing of whose it is.
      const foreign = await verify(other.sandbox, sandbox)
      const missing = await verify(other.sandbox, `SANDBOX_${"0".repeat(26)}`)
      expect(foreign.json().message).toBe(missing.json().message)
    })

    it("requires the signed merchant headers like every merchant endpoint", async () => {
      const shop = await createShop(target())
      const trxId = (await startSession(shop.sandbox, "10")).info.trx_id as string
      expectError(await shop.sandbox.call({ path: verifyPath(trxId), signature: null }), { status: 401, errorCode: "INVALID_CREDENTIALS" })
      expectError(await shop.sandbox.call({ path: verifyPath(trxId), apiKey: undefined }), { status: 401, errorCode: "INVALID_CREDENTIALS" })
    })
  })
