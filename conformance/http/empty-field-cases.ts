import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { createShop, initiate, paymentBody, startSession, verify } from "./payment-fixtures.js"
import { expectRefund, paidPayment, refund } from "./refund-fixtures.js"
import { adminRequest, type Target } from "./signing.js"
import { cancel, createSubscription, renew, subscribe } from "./subscription-fixtures.js"

const required = (...fields: ReadonlyArray<string>) => ({ status: 422, errorCode: "VALIDATION_FAILED", fields }) as const

/**
 * An optional field sent as "" is the field left out, on every endpoint; a required one sent as "" is
 * missing (docs/decisions.md). Storefronts send every field of their form, the empty ones as "".
 */
export const emptyFieldCases = (target: () => Target) =>
  describe("empty optional fields are absent", () => {
    it("initiate takes customer_email, customer_name, description and allow_payment_methods as \"\" and echoes them as \"\", as when left out", async () => {
      const shop = await createShop(target())
      const empty = { customer_email: "", customer_name: "", description: "", allow_payment_methods: "" }
      const session = expectOk(await initiate(shop.sandbox, paymentBody("10", empty)))
      const omitted = await startSession(shop.sandbox, "10")
      for (const field of ["customer_email", "customer_name", "description"]) {
        expect(session.info[field], field).toBe("")
        expect(omitted.info[field], field).toBe("")
      }
      expect(session.info.allow_payment_methods).toEqual(omitted.info.allow_payment_methods)
      expect(session.info.merchant_payment_method_codes).toEqual(omitted.info.merchant_payment_method_codes)
      const transaction = expectOk(await verify(shop.sandbox, session.info.trx_id))
      expect(transaction.customer).toEqual({ name: "", email: "" })
      expect(transaction.description).toBe("")
    })

    it("initiate still refuses a required field sent as \"\": each is named as required", async () => {
      const shop = await createShop(target())
      const body = paymentBody("10", { currency_code: "", ref_trx: "", success_redirect: "", cancel_redirect: "", ipn_url: "" })
      const refused = expectError(await initiate(shop.sandbox, body), required("currency_code", "ref_trx", "success_redirect", "cancel_redirect", "ipn_url"))
      expect(refused.errors.ref_trx).toEqual(["The ref trx field is required."])
      expect(expectError(await initiate(shop.sandbox, paymentBody("", { payment_amount: "" })), { status: 422, fields: ["payment_amount"] }).errors.payment_amount)
        .toEqual(["The payment amount field is required."])
    })

    it("refund takes amount, reason and ref_refund as \"\": a full refund without a reference; trx_id \"\" is required", async () => {
      const shop = await createShop(target())
      const trxId = await paidPayment(shop, "40")
      expectError(await refund(shop.sandbox, { trx_id: "", reason: "" }), required("trx_id"))
      expectRefund(await refund(shop.sandbox, { trx_id: trxId, reason: "", ref_refund: "" }, "\"\""), {
        original: trxId, refunded: "40", total: "40", remaining: "0", fully: true
      })
    })

    it("subscriptions take customer_name, description, starts_at, allow_payment_methods and metadata as \"\"; customer_email \"\" is required", async () => {
      const shop = await createShop(target())
      const created = await subscribe(shop.sandbox, { customer_name: "", description: "", starts_at: "", allow_payment_methods: "", metadata: "" })
      const omitted = await subscribe(shop.sandbox)
      for (const field of ["customer_name", "description", "metadata", "allow_payment_methods"]) expect(created[field], field).toEqual(omitted[field])
      // starts_at "" is an immediate start: the first invoice is open at once.
      expect(created.starts_at).toBe(created.created_at)
      expect(created.latest_invoice?.status).toBe("pending")
      expectError(await createSubscription(shop.sandbox, { customer_email: "" }), required("customer_email"))
      // renew's force_new "" is false: the open first invoice is recovered, not replaced.
      const renewed = expectOk(await renew(shop.sandbox, created.id, { force_new: "" })).data
      expect(renewed.latest_invoice.id).toBe(created.latest_invoice.id)
      // cancel's at_period_end "" is the default (true), which cancels a pending subscription at once.
      expect(expectOk(await cancel(shop.sandbox, created.id, { at_period_end: "" })).data.status).toBe("cancelled")
    })

    it("list queries take an empty parameter as absent: its default applies", async () => {
      const shop = await createShop(target())
      await subscribe(shop.sandbox)
      const page = expectOk(await shop.sandbox.call({ path: "/api/v1/subscriptions?per_page=&page=" }))
      expect(page.meta).toMatchObject({ current_page: 1, per_page: 20, total: 1 })
      await startSession(shop.sandbox, "10")
      const payments = expectOk(await shop.sandbox.call({ path: "/api/v1/payments?limit=&cursor=&status=&reference=&amount=&since=" }))
      const unfiltered = expectOk(await shop.sandbox.call({ path: "/api/v1/payments" }))
      expect(payments.data.map((payment: any) => payment.trx_id)).toEqual(unfiltered.data.map((payment: any) => payment.trx_id))
      expect(payments.data).toHaveLength(2)
      expect(expectOk(await adminRequest(target(), "GET", "/merchants?per_page=&status=")).meta.per_page).toBe(20)
    })

    it("admin bodies too: a merchant created with status \"\" is pending, as without one", async () => {
      const created = expectOk(await adminRequest(target(), "POST", "/merchants", { name: "Empty status", status: "", fee_percent: "" }), 201)
      expect(created.status).toBe("pending")
    })
  })
