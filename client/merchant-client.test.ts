import { beforeAll, describe, expect, it } from "vitest"
import { currentReceiverUrl } from "../testing/hosts/child-hosts.js"
import { MerchantApiError } from "./client-errors.js"
import type { MerchantClient } from "./merchant-client.js"
import { checkoutAddresses, type ClientHost, demoClient, startClientHost } from "./testing/client-hosts.js"
import { recordingFetch } from "./testing/recording-fetch.js"
import { childHostSuite } from "../testing/hosts/child-host-suite.js"

/**
 * The client against the built standalone host in a child process (the demo merchant, sandbox):
 * every merchant endpoint, amounts exact, refusals as MerchantApiError.
 */
describe("merchant client against the standalone host", () => {
  const scratch = childHostSuite("mp-client-")
  let target: ClientHost
  let client: MerchantClient
  beforeAll(async () => {
    target = await startClientHost(scratch(), "host")
    client = demoClient(target)
  }, 180_000)

  const paidPayment = async (refTrx: string, amount: string) => {
    const session = await client.initiatePayment({ payment_amount: amount, currency_code: "USD", ref_trx: refTrx, ...checkoutAddresses(currentReceiverUrl()) })
    await client.simulatePayment(session.info.trx_id, "success")
    return session.info.trx_id
  }

  it("initiates a payment, simulates success and verifies it as success, amounts exact", async () => {
    const session = await client.initiatePayment({
      payment_amount: "100.50",
      currency_code: "USD",
      ref_trx: "order-1",
      customer_name: "Ada",
      ...checkoutAddresses(currentReceiverUrl())
    })
    expect(session.payment_url).toMatch(new RegExp(`^${target.host.url}/checkout/`))
    expect(session.info).toMatchObject({ ref_trx: "order-1", amount: "100.5", currency_code: "USD", environment: "sandbox", is_sandbox: true })
    expect(session.info.merchant_id).toBe(target.demo.merchant_id)

    const pending = await client.verifyPayment(session.info.trx_id)
    expect(pending).toMatchObject({ status: "pending", fee: "0", net_amount: "0", refunded_amount: "0", fully_refunded: false })

    const simulated = await client.simulatePayment(session.info.trx_id, "success")
    expect(simulated.status).toBe("success")
    // The demo's fee: 2.9% + 0.30 of 100.50 = 3.2145, half-up to 3.21.
    expect(await client.verifyPayment(session.info.trx_id)).toMatchObject({
      status: "success",
      trx_id: session.info.trx_id,
      amount: "100.5",
      fee: "3.21",
      net_amount: "97.29",
      customer: { name: "Ada", email: "" }
    })
  })

  it("calls any operation by its operationId: the merchant's balances, exact, moving with a paid payment", async () => {
    // Decimal text to hundredths as a bigint, so the test adds money without a double.
    const hundredths = (text: string) => {
      const [whole = "0", fraction = ""] = text.split(".")
      return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2))
    }
    const usdOf = async () => {
      const { data } = await client.request("listBalances", {})
      expect(data.every((wallet) => wallet.environment === "sandbox")).toBe(true)
      return data.find((wallet) => wallet.currency_code === "USD")
    }
    const before = await usdOf()
    expect(before).toMatchObject({ currency_code: "USD", active: true })
    await paidPayment("balance-1", "10.00")
    // The demo's fee on 10.00: 2.9% + 0.30 = 0.59, so the wallet gains 9.41.
    expect(hundredths((await usdOf())!.balance)).toBe(hundredths(before!.balance) + 941n)
  })

  it("rejects an operationId the API does not have, before anything is sent", async () => {
    await expect(client.request("noSuchOperation" as "siteInfo", {})).rejects.toThrow("noSuchOperation is not an operation of the merchant API.")
  })

  it("answers site info", async () => {
    expect(await client.siteInfo()).toMatchObject({ api_version: "1.0", status: "active", environments: { sandbox: "Sandbox" } })
  })

  it("sends the caller's Idempotency-Key: the same key replays the first answer instead of acting twice", async () => {
    const body = { payment_amount: "5", currency_code: "USD", ref_trx: "order-idem", ...checkoutAddresses(currentReceiverUrl()) }
    const first = await client.initiatePayment(body, { idempotencyKey: "my-key-1" })
    const again = await client.initiatePayment(body, { idempotencyKey: "my-key-1" })
    expect(again.info.trx_id).toBe(first.info.trx_id)
    // Without a key of its own, each call gets a fresh one: the same ref_trx is then a new request, refused.
    await expect(client.initiatePayment(body)).rejects.toMatchObject({ status: 409, errorCode: "DUPLICATE_REFERENCE" })
  })

  it("refunds in part, replays a repeated ref_refund without moving money, then refunds the rest", async () => {
    const trxId = await paidPayment("order-refund", "100")
    // The wallet must cover a full refund of 100, more than this payment's net.
    await paidPayment("order-balance", "50")

    const partial = await client.refundPayment({ trx_id: trxId, amount: "25.10", ref_refund: "rf-1", reason: "damaged" })
    expect(partial).toMatchObject({
      status: "success", original_trx_id: trxId, refunded_amount: "25.1", total_refunded: "25.1", remaining_refund: "74.9", fully_refunded: false, currency: "USD"
    })
    const repeated = await client.refundPayment({ trx_id: trxId, amount: "25.10", ref_refund: "rf-1" })
    expect(repeated).toEqual(partial)

    const rest = await client.refundPayment({ trx_id: trxId, ref_refund: "rf-2" })
    expect(rest).toMatchObject({ refunded_amount: "74.9", total_refunded: "100", remaining_refund: "0", fully_refunded: true })
    expect(rest.refund_trx_id).not.toBe(partial.refund_trx_id)
    expect(await client.verifyPayment(trxId)).toMatchObject({ status: "success", refunded_amount: "100", fully_refunded: true })

    const refused = await client.refundPayment({ trx_id: trxId, amount: "1" }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(MerchantApiError)
    expect(refused).toMatchObject({ status: 422 })
  })

  it("creates, lists, retrieves, renews and cancels subscriptions", async () => {
    const created = await client.createSubscription({
      external_reference: "plan-1",
      billing_cycle: "monthly",
      payment_amount: "19.99",
      currency_code: "USD",
      customer_email: "ada@example.com",
      metadata: { seats: 3 },
      ...checkoutAddresses(currentReceiverUrl())
    })
    const id = created.data.id
    expect(created.data).toMatchObject({ status: "pending", amount: "19.99000000", billing_cycle: "monthly", metadata: { seats: 3 } })
    expect(created.data.latest_invoice).toMatchObject({ sequence: 1, status: "pending", amount: "19.99000000" })

    const page = await client.listSubscriptions({ per_page: 100, page: 1 })
    expect(page.meta).toMatchObject({ current_page: 1, per_page: 100 })
    expect(page.data.map((subscription) => subscription.id)).toContain(id)

    const renewed = await client.renewSubscription(id, { force_new: true })
    expect(renewed.data.latest_invoice).toMatchObject({ sequence: 2, status: "pending" })
    const retrieved = await client.getSubscription(id)
    expect(retrieved.data.invoices?.map((invoice) => [invoice.sequence, invoice.status])).toEqual([[2, "pending"], [1, "void"]])

    await client.simulatePayment(renewed.data.latest_invoice!.trx_id!, "success")
    expect((await client.getSubscription(id)).data.status).toBe("active")

    const early = recordingFetch()
    const refused = await demoClient(target, { fetch: early.fetch }).renewSubscription(id).catch((error: unknown) => error)
    expect(refused).toMatchObject({ status: 409, attempts: 1 })
    expect(early.attempts).toHaveLength(1)

    const atEnd = await client.cancelSubscription(id)
    expect(atEnd.data).toMatchObject({ status: "active", cancel_at_period_end: true })

    const other = await client.createSubscription({
      external_reference: "plan-2", billing_cycle: "weekly", payment_amount: "5", currency_code: "USD", customer_email: "bo@example.com",
      ...checkoutAddresses(currentReceiverUrl())
    })
    const now = await client.cancelSubscription(other.data.id, { at_period_end: false })
    expect(now.data).toMatchObject({ status: "cancelled", latest_invoice: { status: "void" } })
  })

  it("surfaces a 4xx as MerchantApiError with the 7.3 fields, after one attempt only", async () => {
    const recorded = recordingFetch()
    const once = demoClient(target, { fetch: recorded.fetch })
    const invalid = await once
      .initiatePayment({ payment_amount: "0.50", currency_code: "USD", ref_trx: "too-small", ...checkoutAddresses(currentReceiverUrl()) })
      .catch((error: unknown) => error)
    expect(invalid).toBeInstanceOf(MerchantApiError)
    const error = invalid as MerchantApiError
    expect([error.status, error.errorCode, error.message, error.attempts]).toEqual([422, "INVALID_AMOUNT", "The given data was invalid.", 1])
    expect(error.errors["payment_amount"]?.[0]).toMatch(/\S/)
    expect(error.body).toMatchObject({ success: false, error_code: "INVALID_AMOUNT" })
    expect(error.body?.timestamp).toMatch(/Z$/)

    await expect(once.verifyPayment("SANDBOX_NOPE")).rejects.toMatchObject({ status: 404, errorCode: "NOT_FOUND", path: "/api/v1/verify-payment/SANDBOX_NOPE" })
    await expect(once.getSubscription("a/b?c")).rejects.toMatchObject({ status: 404, path: "/api/v1/subscriptions/a%2Fb%3Fc" })
    expect(recorded.attempts.map((attempt) => attempt.status)).toEqual([422, 404, 404])
  })

  it("refuses a wrong secret with 401 and never sends it", async () => {
    const recorded = recordingFetch()
    const wrong = demoClient(target, { clientSecret: "not-the-secret", fetch: recorded.fetch })
    await expect(wrong.siteInfo()).rejects.toMatchObject({ status: 401, errorCode: "INVALID_CREDENTIALS", attempts: 1 })
    expect(JSON.stringify(recorded.attempts)).not.toContain("not-the-secret")
  })
})
