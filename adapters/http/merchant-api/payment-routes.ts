import * as Effect from "effect/Effect"
import { initiatePayment } from "../../../core/payments/initiate-payment.js"
import { listPayments } from "../../../core/payments/list-payments.js"
import { type SimulatedOutcome, simulatePayment, verifyPayment } from "../../../core/payments/verify-payment.js"
import { paymentIpnUrlRefusal } from "../../../core/webhooks/ipn-url-rule.js"
import { ipnUrlToo } from "../contract/ipn-url-field.js"
import { initiatePaymentBody, SIMULATE_WORDS, simulatePaymentBody } from "../contract/payment-contracts.js"
import { trxIdInPath } from "../contract/parameters.js"
import { CheckoutSession, Transaction } from "../contract/payment-resources.js"
import { readJsonBody, validBody } from "../contract/read-body.js"
import * as ListParameters from "../contract/merchant-list-parameters.js"
import { PaymentPage } from "../contract/merchant-list-resources.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { checkoutSessionJson, verifyJson } from "../response/payment-serializers.js"

/** The simulate endpoint's words (those of verify's status), mapped once to the payment outcome. */
const SIMULATED = { success: "paid", failed: "declined", cancelled: "cancelled" } as const satisfies Record<(typeof SIMULATE_WORDS)[number], SimulatedOutcome>

const initiate = endpoint({
  method: "post",
  path: "/api/v1/initiate-payment",
  operationId: "initiatePayment",
  summary: "Create a hosted checkout session",
  description: "Returns the signed, time-limited `payment_url` to send the customer to, and `info.trx_id`.",
  tag: "Payments",
  security: "merchant",
  body: initiatePaymentBody,
  success: { status: 200, description: "The checkout session (spec 2.2).", schema: CheckoutSession },
  errors: ["CurrencyNotEnabled", "ReceiverWalletUnavailable", "DuplicateReference"],
  // The checkout terms name the amount `amount`; this body calls it payment_amount.
  wireNames: { amount: "payment_amount" },
  handler: Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const { done, fields, values } = yield* readJsonBody(initiatePaymentBody)
    yield* ipnUrlToo(fields, values.ipn_url, paymentIpnUrlRefusal)
    const valid = yield* done((body) => ({
      amount: body.payment_amount,
      currency: body.currency_code,
      refTrx: body.ref_trx,
      successRedirect: body.success_redirect,
      cancelRedirect: body.cancel_redirect,
      ipnUrl: body.ipn_url,
      description: body.description ?? null,
      customerName: body.customer_name ?? null,
      customerEmail: body.customer_email ?? null,
      keywords: body.allow_payment_methods ?? []
    }))
    return checkoutSessionJson(yield* initiatePayment(caller, valid), caller.merchant.name)
  })
})

const trxIdParam = trxIdInPath.read

const verify = endpoint({
  method: "get",
  path: "/api/v1/verify-payment/{trxId}",
  operationId: "verifyPayment",
  summary: "A payment's latest status",
  description: "Only the merchant's own payments in the environment of the request.",
  tag: "Payments",
  security: "merchant",
  parameters: [trxIdInPath],
  success: { status: 200, description: "The transaction (spec 2.3).", schema: Transaction },
  errors: ["PaymentNotFound"],
  handler: Effect.gen(function*() {
    return verifyJson(yield* verifyPayment(yield* CurrentMerchant, yield* trxIdParam))
  })
})

const simulate = endpoint({
  method: "post",
  path: "/api/v1/sandbox/payments/{trxId}/simulate",
  operationId: "simulatePayment",
  summary: "End a sandbox payment without a browser",
  tag: "Payments",
  security: "merchant",
  parameters: [trxIdInPath],
  body: simulatePaymentBody,
  success: { status: 200, description: "The transaction as it ended.", schema: Transaction },
  errors: ["PaymentNotFound", "PaymentAlreadyFinal"],
  handler: Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const { outcome } = yield* validBody(simulatePaymentBody)
    return verifyJson(yield* simulatePayment(caller, yield* trxIdParam, SIMULATED[outcome]))
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/payments",
  operationId: "listPayments",
  summary: "List payments, newest first",
  description: "The merchant's payments in the environment of the request, each as verify-payment answers it. " +
    "Pages follow next_cursor, which stays right while new payments arrive.",
  tag: "Payments",
  security: "merchant",
  query: ListParameters.paymentListQuery,
  success: { status: 200, description: "A page of payments.", schema: PaymentPage },
  handler: (request) => Effect.gen(function*() {
    // The query's names are the use case's: the decoded object is its request as it is.
    const page = yield* listPayments(yield* CurrentMerchant, request)
    return { data: page.payments.map(verifyJson), has_more: page.nextCursor !== null, next_cursor: page.nextCursor }
  })
})

/** Spec 4.1, 4.2, the sandbox simulator, and the merchant's list of payments. */
export const paymentEndpoints = [initiate, verify, simulate, list] as const
