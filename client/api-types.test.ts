import { describe, expectTypeOf, it } from "vitest"
import type { InitiatePaymentRequest, OperationId, PathOf, RequestOf, ResponseOf, Transaction } from "./api-types.js"
import type { DecimalString } from "./exact-json.js"
import type { Invoice, SubscriptionResponse } from "./subscription-types.js"

// Checked by `npm run typecheck`: the client's types are read off the endpoint declarations, so a
// change to a declaration that would break a client shows here, not in a merchant's build.
describe("the client's types follow the endpoint declarations", () => {
  it("gives amounts as exact decimal strings and keeps literal unions", () => {
    expectTypeOf<Transaction["amount"]>().toEqualTypeOf<DecimalString>()
    expectTypeOf<Transaction["status"]>().toEqualTypeOf<"pending" | "success" | "failed">()
    expectTypeOf<ResponseOf<"initiatePayment">["info"]["merchant_id"]>().toEqualTypeOf<number>()
    expectTypeOf<Invoice["trx_id"]>().toEqualTypeOf<string | null>()
    expectTypeOf<SubscriptionResponse["data"]["invoices"]>().toEqualTypeOf<ReadonlyArray<Invoice> | undefined>()
  })

  it("asks for required body fields and leaves the others optional", () => {
    expectTypeOf<InitiatePaymentRequest["payment_amount"]>().toEqualTypeOf<string>()
    expectTypeOf<{ readonly ref_trx: string }>().not.toMatchTypeOf<InitiatePaymentRequest>()
    expectTypeOf<RequestOf<"refundPayment">>().toMatchTypeOf<{ readonly trx_id: string }>()
    expectTypeOf<{ readonly trx_id: "T1" }>().toMatchTypeOf<RequestOf<"refundPayment">>()
    expectTypeOf<RequestOf<"verifyPayment">>().toBeNever()
  })

  it("names path parameters from the path template", () => {
    expectTypeOf<PathOf<"verifyPayment">>().toEqualTypeOf<{ readonly trxId: string }>()
    expectTypeOf<OperationId>().toMatchTypeOf<string>()
    expectTypeOf<"initiatePayment">().toMatchTypeOf<OperationId>()
    expectTypeOf<"noSuchOperation">().not.toMatchTypeOf<OperationId>()
  })
})
