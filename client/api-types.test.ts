import { describe, expectTypeOf, it } from "vitest"
import type { InitiatePaymentRequest, OperationId, PathOf, QueryOf, RequestOf, ResponseOf, Transaction } from "./api-types.js"
import type { ListEventsQuery } from "./event-types.js"
import type { ListPaymentsQuery, ListRefundsQuery } from "./list-types.js"
import type { OperationInput } from "./merchant-client.js"
import type { ListSubscriptionsQuery } from "./subscription-types.js"
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

  it("types each list's query from its declaration, by wire name, and no query where none is read", () => {
    expectTypeOf<keyof QueryOf<"listPayments">>().toEqualTypeOf<"limit" | "cursor" | "status" | "reference" | "amount" | "currency" | "since" | "until">()
    expectTypeOf<QueryOf<"listPayments">["status"]>().toEqualTypeOf<"pending" | "success" | "failed" | undefined>()
    expectTypeOf<QueryOf<"listPayments">["amount"]>().toEqualTypeOf<string | undefined>()
    expectTypeOf<keyof QueryOf<"listRefunds">>().toEqualTypeOf<"limit" | "cursor" | "trx_id" | "since" | "until">()
    expectTypeOf<keyof QueryOf<"listSubscriptions">>().toEqualTypeOf<"page" | "per_page">()
    expectTypeOf<QueryOf<"verifyPayment">>().toBeNever()
    expectTypeOf<OperationInput<"verifyPayment">["query"]>().toEqualTypeOf<undefined>()
    // The client's documented query types stay within what the declarations read.
    expectTypeOf<ListPaymentsQuery>().toMatchTypeOf<QueryOf<"listPayments">>()
    expectTypeOf<ListRefundsQuery>().toMatchTypeOf<QueryOf<"listRefunds">>()
    expectTypeOf<ListEventsQuery>().toMatchTypeOf<QueryOf<"listEvents">>()
    expectTypeOf<ListSubscriptionsQuery>().toMatchTypeOf<QueryOf<"listSubscriptions">>()
  })

  it("refuses, at compile time, a query parameter or value the endpoint does not declare", () => {
    const input = <Id extends OperationId>(_id: Id, given: OperationInput<Id>) => given
    input("listPayments", { query: { status: "failed", amount: "10.50", limit: 5 } })
    // @ts-expect-error: listPayments reads no `page`
    input("listPayments", { query: { page: 2 } })
    // @ts-expect-error: not a status a payment has
    input("listPayments", { query: { status: "refunded" } })
    // @ts-expect-error: verify-payment reads no query
    input("verifyPayment", { path: { trxId: "T1" }, query: { limit: 5 } })
  })
})
