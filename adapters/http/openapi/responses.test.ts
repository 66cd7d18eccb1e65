import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Admin from "../contract/admin-resources.js"
import { CheckoutSession, ErrorBody, RefundResult, SiteInfo, Transaction } from "../contract/payment-resources.js"
import { SubscriptionEnvelope, SubscriptionPage } from "../contract/subscription-resources.js"
import { PaymentEvent, RefundEvent, SubscriptionEvent } from "../contract/webhook-payloads.js"
import { type DocumentedKit, initiateBody, startDocumentedKit, subscriptionBody } from "./testing/documented-kit.js"

let kit: DocumentedKit

beforeAll(async () => {
  kit = await startDocumentedKit()
})
afterAll(() => kit.close())

/** A body as its documented schema reads it: a field the schema does not name is an error too. */
const decoded = (schema: Schema.Schema.AnyNoContext, text: string) =>
  Schema.decodeUnknownSync(schema)(JSON.parse(text), { errors: "all", onExcessProperty: "error" })

const expectDocumented = (schema: Schema.Schema.AnyNoContext, answer: { readonly status: number; readonly text: string }, status: number) => {
  expect(answer.status, answer.text).toBe(status)
  expect(() => decoded(schema, answer.text)).not.toThrow()
}

describe("real answers of a running kit read as their documented schemas", () => {
  it("initiate, simulate, verify, refund, site-info and an error of the merchant API", async () => {
    const session = await kit.merchant("POST", "/api/v1/initiate-payment", initiateBody("resp-1"))
    expectDocumented(CheckoutSession, session, 200)
    const trxId = JSON.parse(session.text).info.trx_id as string
    expectDocumented(Transaction, await kit.merchant("GET", `/api/v1/verify-payment/${trxId}`), 200)
    expectDocumented(Transaction, await kit.merchant("POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" }), 200)
    expectDocumented(RefundResult, await kit.merchant("POST", "/api/v1/refund-payment", { trx_id: trxId, amount: "5.25", ref_refund: "rf-1" }), 200)
    const verified = await kit.merchant("GET", `/api/v1/verify-payment/${trxId}`)
    expectDocumented(Transaction, verified, 200)
    expect(JSON.parse(verified.text)).toMatchObject({ status: "success", refunded_amount: 5.25, fully_refunded: false })
    expectDocumented(SiteInfo, await kit.merchant("GET", "/api/v1/site-info"), 200)
    expectDocumented(ErrorBody, await kit.merchant("GET", "/api/v1/verify-payment/SANDBOX_NOSUCHPAYMENT"), 404)
    expectDocumented(ErrorBody, await kit.merchant("POST", "/api/v1/initiate-payment", {}), 422)
  })

  it("subscription create, list, retrieve and cancel", async () => {
    const createdAnswer = await kit.merchant("POST", "/api/v1/subscriptions", subscriptionBody("resp-plan"))
    expectDocumented(SubscriptionEnvelope, createdAnswer, 201)
    const id = JSON.parse(createdAnswer.text).data.id as string
    expectDocumented(SubscriptionPage, await kit.merchant("GET", "/api/v1/subscriptions?per_page=5"), 200)
    const retrieved = await kit.merchant("GET", `/api/v1/subscriptions/${id}`)
    expectDocumented(SubscriptionEnvelope, retrieved, 200)
    expect(JSON.parse(retrieved.text).data.invoices).toHaveLength(1)
    expectDocumented(SubscriptionEnvelope, await kit.merchant("POST", `/api/v1/subscriptions/${id}/cancel`, { at_period_end: false }), 200)
  })

  it("admin resources", async () => {
    const { merchantId } = kit.shop
    expectDocumented(Admin.MerchantPage, await kit.admin("GET", "/merchants"), 200)
    expectDocumented(Admin.Merchant, await kit.admin("PATCH", `/merchants/${merchantId}`, { fee_percent: "2.9", fee_fixed: 0.3 }), 200)
    expectDocumented(Admin.MerchantCurrencies, await kit.admin("PUT", `/merchants/${merchantId}/currencies`, { currency_codes: ["USD", "EUR"] }), 200)
    const wallet = await kit.admin("POST", `/merchants/${merchantId}/wallets`, { currency_code: "EUR", environment: "sandbox" })
    expectDocumented(Admin.Wallet, wallet, 201)
    expectDocumented(Admin.Adjustment, await kit.admin("POST", `/wallets/${JSON.parse(wallet.text).id}/adjustments`, { amount: "10.00", reason: "Float" }), 201)
    expectDocumented(Admin.WalletList, await kit.admin("GET", `/merchants/${merchantId}/wallets`), 200)
    const gateway = await kit.admin("POST", "/gateways", { plugin: "sandbox", name: "Sandbox", currency_code: "EUR", method: "cards" })
    expectDocumented(Admin.Gateway, gateway, 201)
    expectDocumented(Admin.GatewayList, await kit.admin("GET", "/gateways"), 200)
    expectDocumented(Admin.MerchantGateways, await kit.admin("PUT", `/merchants/${merchantId}/gateways`, { gateway_ids: [JSON.parse(gateway.text).id] }), 200)
    expectDocumented(Admin.Settings, await kit.admin("GET", "/settings"), 200)
    expectDocumented(Admin.ClockTime, await kit.admin("POST", "/clock/advance", { seconds: 1 }), 200)
    expectDocumented(Admin.SchedulerReport, await kit.admin("POST", "/scheduler/run"), 200)
    expectDocumented(Admin.IssuedCredentials, await kit.admin("POST", `/merchants/${merchantId}/credentials`, { environment: "production" }), 201)
    const deliveries = await kit.admin("GET", "/webhook-deliveries")
    expectDocumented(Admin.WebhookDeliveryList, deliveries, 200)
    const deliveryId = JSON.parse(deliveries.text).data[0].id as string
    expectDocumented(Admin.WebhookDeliveryDetail, await kit.admin("GET", `/webhook-deliveries/${deliveryId}`), 200)
    expectDocumented(Admin.FlaggedPaymentList, await kit.admin("GET", "/payments/flagged"), 200)
    const paid = (await kit.outbox()).find((delivery) => delivery.event === "payment.refunded")!
    const trxId = JSON.parse(paid.body).data.original_trx_id as string
    const payment = await kit.admin("GET", `/payments/${trxId}`)
    expectDocumented(Admin.PaymentView, payment, 200)
    expect(JSON.parse(payment.text).data.refunds).toHaveLength(1)
    expectDocumented(ErrorBody, await kit.admin("GET", "/merchants/987654321"), 404)
  })

  it("the webhook bodies the kit queued", async () => {
    const events = new Map((await kit.outbox()).map((delivery) => [delivery.event, delivery.body]))
    const payloads = [
      [PaymentEvent, "payment.completed"],
      [RefundEvent, "payment.refunded"],
      [SubscriptionEvent, "invoice.created"],
      [SubscriptionEvent, "subscription.cancelled"]
    ] as const
    for (const [schema, event] of payloads) {
      expect(events.has(event), event).toBe(true)
      expect(() => decoded(schema, events.get(event)!), event).not.toThrow()
    }
  })

  it("refuses an answer that lacks a documented field or carries an undocumented one", async () => {
    const answer = JSON.parse((await kit.merchant("GET", "/api/v1/site-info")).text)
    const { api_version: _, ...lacking } = answer
    expect(() => decoded(SiteInfo, JSON.stringify(lacking))).toThrow(/api_version/)
    expect(() => decoded(SiteInfo, JSON.stringify({ ...answer, extra: 1 }))).toThrow(/extra/)
    expect(() => decoded(Transaction, JSON.stringify({ amount: 1e21 }))).toThrow()
  })
})
