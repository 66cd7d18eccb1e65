import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { Amount } from "../money/amount.js"
import * as CurrencyCatalog from "../money/currency-catalog.js"
import type { Merchant } from "../merchants/merchant.js"
import { MerchantId } from "../shared/ids.js"
import { Instant } from "../shared/instant.js"
import { invoiceDocumentFacts } from "./invoice-document.js"
import type { Invoice, Subscription } from "./subscription.js"

const at = (iso: string) => Instant(BigInt(Date.parse(iso)) * 1000n)

const merchant = { id: MerchantId(7), name: "Kyoto Tea" } as Merchant
const subscription = {
  id: "sub-1", merchantId: MerchantId(7), environment: "production", externalReference: "plan-42", billingCycle: "monthly",
  customerName: null, customerEmail: "ada@example.test", description: null
} as Subscription
const invoice = (fields: Partial<Invoice>): Invoice => ({
  id: "inv-1", subscriptionId: "sub-1", sequence: 3, reference: "INV-inv-1", number: "INV-2026-000003", status: "pending",
  amount: Amount(150_000_000_000n), currency: "JPY", trxId: "PROD_X", periodStart: at("2026-01-31T09:30:00Z"),
  periodEnd: at("2026-02-28T09:30:00Z"), checkoutExpiresAt: null, paidAt: null, createdAt: at("2026-01-31T23:59:59.999Z"),
  updatedAt: at("2026-01-31T23:59:59.999Z"), ...fields
})
const factsOf = (of: Invoice) =>
  invoiceDocumentFacts({ merchant, environment: "production" }, subscription, of).pipe(Effect.provide(CurrencyCatalog.layer()))

describe("an invoice document's facts", () => {
  it.effect("writes amounts exactly in the currency's minor unit and dates as UTC calendar days", () =>
    Effect.gen(function*() {
      const yen = yield* factsOf(invoice({}))
      expect(yen).toMatchObject({
        number: "INV-2026-000003", issuedOn: "2026-01-31", period: "2026-01-31 to 2026-02-28", total: "1500", currency: "JPY",
        lines: [{ description: "Subscription plan-42 (monthly)", amount: "1500" }], paidOn: null, paymentTrxId: null
      })
      // Integer arithmetic throughout: eleven whole digits and the cents come out exactly.
      const dollars = yield* factsOf(invoice({ currency: "USD", amount: Amount(1_234_567_891_000_000_000n) }))
      expect(dollars.total).toBe("12345678910.00")
      const bitcoin = yield* factsOf(invoice({ currency: "BTC", amount: Amount(1n) }))
      expect(bitcoin.total).toBe("0.00000001")
    }))

  it.effect("a paid invoice names its paid day and payment; an unpaid one's trx id is not a payment yet", () =>
    Effect.gen(function*() {
      const paid = yield* factsOf(invoice({ status: "paid", paidAt: at("2026-02-01T00:00:00Z") }))
      expect(paid).toMatchObject({ status: "paid", paidOn: "2026-02-01", paymentTrxId: "PROD_X" })
    }))
})
